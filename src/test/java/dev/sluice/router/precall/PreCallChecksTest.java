package dev.sluice.router.precall;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.sluice.catalog.BundledModelCatalog;
import dev.sluice.catalog.CachePrefixes.CacheKeys;
import dev.sluice.config.ConfigLoader;
import dev.sluice.config.Deployment;
import dev.sluice.config.SluiceConfig;
import dev.sluice.failure.FailureClass;
import dev.sluice.router.precall.Checked.Dropped;
import dev.sluice.router.signals.CachePins;
import dev.sluice.router.strategy.RequestFacts;
import dev.sluice.testing.FakeClock;
import dev.sluice.vendors.Providers;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

class PreCallChecksTest {
    private final FakeClock clock = new FakeClock();
    private final MapPins pins = new MapPins();

    /** Pins kept in a map, each until its time. */
    private static final class MapPins implements CachePins {
        final Map<String, Map.Entry<String, Instant>> pins = new ConcurrentHashMap<>();

        @Override
        public void pin(String prefixKey, String deploymentId, Instant until) {
            pins.put(prefixKey, Map.entry(deploymentId, until));
        }

        @Override
        public Optional<String> pinned(String prefixKey, Instant now) {
            Map.Entry<String, Instant> pin = pins.get(prefixKey);
            return pin == null || !now.isBefore(pin.getValue()) ? Optional.empty() : Optional.of(pin.getKey());
        }
    }

    /** A group {@code g} of the given deployments (ids d0, d1, ...), under {@code routerSettings}. */
    private record Setup(PreCallChecks checks, List<Deployment> deployments) {}

    private Setup setup(String routerSettings, String... entries) {
        StringBuilder yaml = new StringBuilder("model_list:\n");
        for (int i = 0; i < entries.length; i++) {
            String[] parts = entries[i].split("\\|");
            yaml.append("  - model_name: g\n    litellm_params: {").append(parts[0].strip())
                    .append(", api_base: 'http://127.0.0.1:9/v1'}\n    model_info: {id: d").append(i)
                    .append(parts.length > 1 ? ", " + parts[1].strip() : "").append("}\n");
        }
        yaml.append("router_settings: {").append(routerSettings).append("}\n");
        try {
            SluiceConfig config = ConfigLoader.parse(yaml.toString(), Map.of(), Providers.knownPrefixes());
            return new Setup(new PreCallChecks(config.router(), new BundledModelCatalog(), pins, clock), config.deployments());
        } catch (Exception e) {
            throw new IllegalArgumentException(yaml.toString(), e);
        }
    }

    private static RequestFacts prompt(int tokens) {
        return new RequestFacts("g", tokens, false, Optional.empty());
    }

    private static RequestFacts cached(String key) {
        return new RequestFacts("g", 2000, false, Optional.of(key));
    }

    private static List<String> ids(List<Deployment> deployments) {
        return deployments.stream().map(Deployment::id).toList();
    }

    @Test
    void withoutPreCallChecksEveryCandidateIsKeptWhateverItsWindow() {
        Setup s = setup("", "model: openai/a | max_input_tokens: 100", "model: openai/b");

        Checked checked = s.checks().check(s.deployments(), prompt(5000));

        assertThat(ids(checked.kept())).containsExactly("d0", "d1");
        assertThat(checked.dropped()).isEmpty();
    }

    @Test
    void dropsADeploymentWhoseWindowIsOneTokenShortAndKeepsOneThatFitsExactly() {
        Setup s = setup("enable_pre_call_checks: true",
                "model: openai/a | max_input_tokens: 4999", "model: openai/b | max_input_tokens: 5000");

        Checked checked = s.checks().check(s.deployments(), prompt(5000));

        assertThat(ids(checked.kept())).containsExactly("d1");
        assertThat(checked.dropped()).containsExactly(new Dropped(s.deployments().get(0), PreCallChecks.CONTEXT_WINDOW,
                "the prompt has 5000 tokens and deployment 'd0' takes at most 4999"));
        assertThat(checked.allDroppedReason()).isEmpty();
        assertThat(checked.failure()).isEmpty();
    }

    @Test
    void takesTheWindowFromTheBundledTableAndKeepsADeploymentWhoseWindowIsUnknown() {
        Setup s = setup("enable_pre_call_checks: true",
                "model: openai/gpt-3.5-turbo", "model: openai/gpt-4o", "model: hosted_vllm/in-house");

        Checked checked = s.checks().check(s.deployments(), prompt(20_000));

        assertThat(ids(checked.kept())).containsExactly("d1", "d2");
        assertThat(checked.dropped()).extracting(Dropped::reason)
                .containsExactly("the prompt has 20000 tokens and deployment 'd0' takes at most 16385");
    }

    @Test
    void whenNoCandidateCanTakeThePromptItIsAContextWindowFailure() {
        Setup s = setup("enable_pre_call_checks: true",
                "model: openai/a | max_input_tokens: 8000", "model: openai/gpt-3.5-turbo");

        Checked checked = s.checks().check(s.deployments(), prompt(20_000));

        assertThat(checked.kept()).isEmpty();
        assertThat(checked.dropped()).hasSize(2);
        assertThat(checked.allDroppedReason()).contains("Sluice: a prompt of 20000 tokens is longer than the context window"
                + " of every deployment of model group 'g' left to try ('d0' takes at most 8000, 'd1' takes at most 16385);"
                + " none was called.");
        assertThat(checked.failure()).hasValueSatisfying(failure -> {
            assertThat(failure.kind()).isEqualTo(FailureClass.CONTEXT_WINDOW);
            assertThat(failure.answered()).isFalse();
            assertThat(failure.cause()).isEqualTo(checked.allDroppedReason().orElseThrow());
        });
    }

    @Test
    void offersOnlyTheLowestOrderEvenWithoutPreCallChecks() {
        Setup s = setup("", "model: openai/a, order: 2", "model: openai/b, order: 1", "model: openai/c, order: 1",
                "model: openai/d");

        Checked checked = s.checks().check(s.deployments(), prompt(10));

        assertThat(ids(checked.kept())).containsExactly("d1", "d2");
        assertThat(checked.dropped()).extracting(Dropped::check, Dropped::reason).containsExactly(
                tuple(PreCallChecks.ORDER, "order 2; deployments of order 1 are offered first"),
                tuple(PreCallChecks.ORDER, "no order; deployments of order 1 are offered first"));
    }

    @Test
    void theNextOrderIsOfferedOnceTheLowerOneIsNoLongerACandidate() {
        Setup s = setup("", "model: openai/a, order: 1", "model: openai/b, order: 2", "model: openai/c, order: 3");

        Checked checked = s.checks().check(s.deployments().subList(1, 3), prompt(10));

        assertThat(ids(checked.kept())).containsExactly("d1");
    }

    @Test
    void withoutAnyOrderEveryCandidateIsKept() {
        Setup s = setup("", "model: openai/a", "model: openai/b");

        assertThat(ids(s.checks().check(s.deployments(), prompt(10)).kept())).containsExactly("d0", "d1");
    }

    @Test
    void orderIsAppliedToTheDeploymentsThatCanTakeThePrompt() {
        Setup s = setup("enable_pre_call_checks: true",
                "model: openai/a, order: 1 | max_input_tokens: 1000", "model: openai/b, order: 2 | max_input_tokens: 100000");

        Checked checked = s.checks().check(s.deployments(), prompt(5000));

        assertThat(ids(checked.kept())).containsExactly("d1");
    }

    @Test
    void aPinnedDeploymentKeepsTheConversationWhileThePinLasts() {
        Setup s = setup("optional_pre_call_checks: [prompt_caching]", "model: openai/a, weight: 1", "model: openai/b, weight: 100");
        pins.pin("key", "d0", clock.instant().plus(Duration.ofMinutes(5)));

        Checked pinned = s.checks().check(s.deployments(), cached("key"));
        clock.advance(Duration.ofMinutes(5));
        Checked lapsed = s.checks().check(s.deployments(), cached("key"));

        assertThat(ids(pinned.kept())).containsExactly("d0");
        assertThat(pinned.dropped()).extracting(Dropped::reason)
                .containsExactly("the conversation's cached prefix is held by deployment 'd0'");
        assertThat(ids(lapsed.kept())).containsExactly("d0", "d1");
    }

    @Test
    void aPinToADeploymentThatIsNotACandidateIsPassedOver() {
        Setup s = setup("optional_pre_call_checks: [prompt_caching]", "model: openai/a", "model: openai/b", "model: openai/c");
        pins.pin("key", "d0", clock.instant().plus(Duration.ofMinutes(5)));

        Checked checked = s.checks().check(s.deployments().subList(1, 3), cached("key"));

        assertThat(ids(checked.kept())).containsExactly("d1", "d2");
        assertThat(checked.dropped()).isEmpty();
    }

    @Test
    void aPinDoesNotOverrideOrder() {
        Setup s = setup("optional_pre_call_checks: [prompt_caching]", "model: openai/a, order: 1", "model: openai/b, order: 2");
        pins.pin("key", "d1", clock.instant().plus(Duration.ofMinutes(5)));

        assertThat(ids(s.checks().check(s.deployments(), cached("key")).kept())).containsExactly("d0");
    }

    @Test
    void pinsAreIgnoredWithoutThePromptCachingCheck() {
        Setup s = setup("enable_pre_call_checks: true", "model: openai/a", "model: openai/b");
        pins.pin("key", "d0", clock.instant().plus(Duration.ofMinutes(5)));

        assertThat(ids(s.checks().check(s.deployments(), cached("key")).kept())).containsExactly("d0", "d1");
    }

    @Test
    void servingPinsEveryKeyUntilTheCacheLapses() {
        Setup s = setup("optional_pre_call_checks: [prompt_caching]", "model: openai/a", "model: openai/b");

        s.checks().served(s.deployments().get(1), new CacheKeys(Optional.of("old"), List.of("whole", "shared"), Duration.ofMinutes(5)));

        assertThat(pins.pins).containsOnlyKeys("whole", "shared");
        assertThat(pins.pins.get("whole")).isEqualTo(Map.entry("d1", FakeClock.START.plus(Duration.ofMinutes(5))));
    }

    @Test
    void servingPinsNothingWithoutThePromptCachingCheck() {
        Setup s = setup("", "model: openai/a");

        s.checks().served(s.deployments().get(0), new CacheKeys(Optional.empty(), List.of("whole"), Duration.ofMinutes(5)));

        assertThat(pins.pins).isEmpty();
    }
}
