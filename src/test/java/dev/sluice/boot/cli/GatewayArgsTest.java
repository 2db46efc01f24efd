package dev.sluice.boot.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GatewayArgsTest {

    @Test
    void defaultsToTheDemoOnPort4000() {
        GatewayArgs args = GatewayArgs.parse(new String[0]);

        assertThat(args.config()).isEmpty();
        assertThat(args.port()).isEqualTo(4000);
        assertThat(args.host()).isEqualTo("0.0.0.0");
        assertThat(args.strict()).isFalse();
    }

    @Test
    void strictTakesNoValue() {
        GatewayArgs args = GatewayArgs.parse(new String[] {"--strict", "--config", "c.yaml"});

        assertThat(args.strict()).isTrue();
        assertThat(args.config()).contains(Path.of("c.yaml"));
    }

    @Test
    void readsEachFlagInBothForms() {
        GatewayArgs args = GatewayArgs.parse(new String[] {"--config", "c.yaml", "--port=8080", "--host", "127.0.0.1"});

        assertThat(args.config()).contains(Path.of("c.yaml"));
        assertThat(args.port()).isEqualTo(8080);
        assertThat(args.host()).isEqualTo("127.0.0.1");
    }

    @Test
    void portBoundaries() {
        assertThat(GatewayArgs.parse(new String[] {"--port", "0"}).port()).isZero();
        assertThat(GatewayArgs.parse(new String[] {"--port", "65535"}).port()).isEqualTo(65535);
        assertThatThrownBy(() -> GatewayArgs.parse(new String[] {"--port", "65536"}))
                .hasMessage("--port: 65536 (expected: a port from 0 to 65535)");
        assertThatThrownBy(() -> GatewayArgs.parse(new String[] {"--port", "-1"})).isInstanceOf(UsageException.class);
        assertThatThrownBy(() -> GatewayArgs.parse(new String[] {"--port", "http"})).isInstanceOf(UsageException.class);
    }

    @Test
    void unknownFlagsAndMissingValuesAreUsageErrors() {
        assertThatThrownBy(() -> GatewayArgs.parse(new String[] {"--conifg", "x"})).hasMessage("unknown argument: --conifg");
        assertThatThrownBy(() -> GatewayArgs.parse(new String[] {"--config"})).hasMessage("--config needs a value");
    }

    @Test
    void aSecondConfigIsAUsageError() {
        assertThatThrownBy(() -> GatewayArgs.parse(new String[] {"--config", "a.yaml", "--config", "b.yaml"}))
                .hasMessage("--config given twice (a.yaml and b.yaml); give one file");
    }

    @Test
    void portAndHostComeFromLiteLLMsVariablesWhenTheFlagsAreNotGiven() {
        GatewayArgs args = GatewayArgs.parse(new String[] {"--config", "c.yaml"}, Map.of("PORT", " 8000 ", "HOST", "127.0.0.1"));

        assertThat(args.port()).isEqualTo(8000);
        assertThat(args.host()).isEqualTo("127.0.0.1");
    }

    @Test
    void theFlagsWinOverTheVariablesAndBlankVariablesCountAsUnset() {
        GatewayArgs flags = GatewayArgs.parse(new String[] {"--port", "9000", "--host", "::1"}, Map.of("PORT", "8000", "HOST", "10.0.0.1"));
        assertThat(flags.port()).isEqualTo(9000);
        assertThat(flags.host()).isEqualTo("::1");

        GatewayArgs blank = GatewayArgs.parse(new String[0], Map.of("PORT", " ", "HOST", ""));
        assertThat(blank.port()).isEqualTo(4000);
        assertThat(blank.host()).isEqualTo("0.0.0.0");
    }

    @Test
    void aPortVariableThatIsNotAPortIsRefusedNamingTheVariable() {
        assertThatThrownBy(() -> GatewayArgs.parse(new String[0], Map.of("PORT", "tcp://10.0.0.7:4000")))
                .isInstanceOf(UsageException.class)
                .hasMessage("PORT=tcp://10.0.0.7:4000 (expected: a port from 0 to 65535)");
        assertThat(GatewayArgs.parse(new String[] {"--port", "4001"}, Map.of("PORT", "x")).port())
                .as("a flag given leaves the variable unread, as LiteLLM's command line does").isEqualTo(4001);
    }

    @Test
    void liteLLMsWorkerAndDebugFlagsAreAcceptedAndListedAsIgnored() {
        GatewayArgs args = GatewayArgs.parse(new String[] {"--config", "c.yaml", "--num_workers", "4", "--detailed_debug",
                "--debug", "--num_workers=2", "--port", "4000"});

        assertThat(args.ignoredFlags()).containsExactly("--num_workers", "--detailed_debug", "--debug", "--num_workers");
        assertThat(args.config()).contains(Path.of("c.yaml"));
        assertThat(args.port()).isEqualTo(4000);
        assertThat(GatewayArgs.parse(new String[0]).ignoredFlags()).isEmpty();
        assertThatThrownBy(() -> GatewayArgs.parse(new String[] {"--num_workers"})).isInstanceOf(UsageException.class)
                .hasMessage("--num_workers needs a value");
        assertThatThrownBy(() -> GatewayArgs.parse(new String[] {"--run_gunicorn"})).isInstanceOf(UsageException.class)
                .hasMessage("unknown argument: --run_gunicorn");
    }
}
