package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
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
}
