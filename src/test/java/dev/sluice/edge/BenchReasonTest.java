package dev.sluice.edge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.call.RecentCalls;
import dev.sluice.config.ConfigLoader;
import dev.sluice.config.Deployment;
import dev.sluice.config.SluiceConfig;
import dev.sluice.failure.FailureClass;
import dev.sluice.router.Cooldowns;
import dev.sluice.router.DeploymentFailures;
import dev.sluice.router.signals.InMemoryCooldownStore;
import dev.sluice.testing.FakeClock;
import dev.sluice.vendors.Providers;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code bench_reason} names why this replica benched a deployment only while that bench is
 * the one in force: a bench another replica made through the shared cooldown store, after one
 * made here, shows no reason rather than the earlier one's.
 */
class BenchReasonTest {
    private final FakeClock clock = new FakeClock();
    private final InMemoryCooldownStore store = new InMemoryCooldownStore();
    private final DeploymentFailures failures = new DeploymentFailures(clock, (deployment, text) -> text);
    private final SluiceConfig config = parse();
    private final LiveState live = new LiveState(new Cooldowns(config.router(), store, clock, failures), failures,
            new RecentCalls(10));
    private final Deployment deployment = config.deployments().getFirst();

    private static SluiceConfig parse() {
        try {
            return ConfigLoader.parse("""
                    model_list:
                      - {model_name: g, litellm_params: {model: openai/a, api_base: "http://127.0.0.1:9/v1"}, model_info: {id: a}}
                    """, Map.of(), Providers.knownPrefixes());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private JsonNode view() {
        return DeploymentStateView.of(deployment, live, true);
    }

    @Test
    void aBenchMadeHereShowsItsReasonEvenAsTheSharedStoreRoundsItsEndToTheMillisecond() {
        Instant until = clock.instant().plus(Duration.ofSeconds(30)).plusNanos(123_456);
        failures.bench("g", "a", FailureClass.RATE_LIMITED, until);
        store.bench("a", until.truncatedTo(ChronoUnit.MILLIS));

        assertThat(view().get("state").asText()).isEqualTo("benched");
        assertThat(view().get("bench_reason").asText()).isEqualTo("rate_limited");
    }

    @Test
    void aBenchAnotherReplicaMadeShowsNoReasonOfAnEarlierBenchMadeHere() {
        Instant ownEnd = clock.instant().plus(Duration.ofSeconds(5));
        failures.bench("g", "a", FailureClass.RATE_LIMITED, ownEnd);
        store.bench("a", ownEnd);
        clock.advance(Duration.ofSeconds(10));
        assertThat(view().get("state").asText()).isNotEqualTo("benched");

        // Another replica benches it through the shared store; this one is not told why.
        store.bench("a", clock.instant().plus(Duration.ofSeconds(60)));

        assertThat(view().get("state").asText()).isEqualTo("benched");
        assertThat(view().get("bench_reason").isNull()).isTrue();
    }
}
