package dev.sluice.router;

import static dev.sluice.router.harness.ConfigText.config;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.failure.FailureClass;
import dev.sluice.router.harness.ConfigText;
import dev.sluice.router.harness.OutcomeLine;
import dev.sluice.router.harness.RouterHarness;
import dev.sluice.router.harness.Step;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Tag filtering inside the attempt loop: the deployments it leaves out are no candidates for
 * the first pick, a sibling failover, a repeat or a bench's stand-in; a group it leaves nothing
 * of refuses before any call and goes on to its fallbacks, each filtered in turn, and a fallback
 * group it leaves nothing of is skipped.
 */
class RouterTagsTest {

    /** chat: paid1, paid2 (tagged paid), free1 (free), std1 (default). */
    private static ConfigText chat() {
        return filtering("chat/paid1 paid", "chat/paid2 paid", "chat/free1 free", "chat/std1 default");
    }

    /** Tag filtering on, over deployments written {@code group/id tag,tag}, all of order 1. */
    private static ConfigText filtering(String... deployments) {
        ConfigText config = config().router("enable_tag_filtering: true");
        for (String deployment : deployments) {
            String[] parts = deployment.split("[/ ]");
            config.deployment(parts[0], parts[1], "order: 1, tags: [" + parts[2] + "]", "");
        }
        return config;
    }

    @Test
    void aFailedTaggedDeploymentFailsOverOnlyToASiblingCarryingTheTag() {
        RouterHarness harness = RouterHarness.of(chat().router("num_retries: 3"));
        harness.upstreams().always("paid1", Step.fails(FailureClass.AUTH)).always("paid2", Step.fails(FailureClass.AUTH));

        RouteOutcome<String> outcome = harness.route("chat", List.of("paid"));

        assertThat(harness.upstreams().plans()).extracting(plan -> plan.deployment().id())
                .as("refused on both paid deployments; free1 and std1 are no candidates").containsExactlyInAnyOrder("paid1", "paid2");
        assertThat(OutcomeLine.of(outcome)).startsWith("failure chat/");
    }

    @Test
    void aTaggedDeploymentThatFailsIsRepeatedInPlaceRatherThanLeftForTheDefaultOne() {
        RouterHarness harness = RouterHarness.of(filtering("chat/eu1 eu", "chat/std1 default").router("num_retries: 2"));
        harness.upstreams().script("eu1", Step.fails(FailureClass.SERVER), Step.fails(FailureClass.SERVER), Step.serves());

        RouteOutcome<String> outcome = harness.route("chat", List.of("eu"));

        assertThat(OutcomeLine.of(outcome)).isEqualTo(
                "served by eu1 | last chat/eu1 | retries 2 | fallbacks 0 | tried chat[eu1:server eu1:server eu1:served]");
    }

    @Test
    void aBenchedTaggedDeploymentStillTakesItsTaggedRequestsAndIsBenchedAsPartOfItsWholeGroup() {
        RouterHarness harness = RouterHarness.of(filtering("chat/eu1 eu", "chat/std1 default").router("num_retries: 0")
                .router("allowed_fails: 0"));
        harness.upstreams().script("eu1", Step.fails(FailureClass.SERVER), Step.serves());

        harness.route("chat", List.of("eu"));
        // Benched though it is the only deployment the request may use: its group has two.
        assertThat(harness.events().drain()).contains("@0 bench chat/eu1 server until @5000");

        RouteOutcome<String> again = harness.route("chat", List.of("eu"));

        assertThat(OutcomeLine.of(again)).isEqualTo("served by eu1 | last chat/eu1 | retries 0 | fallbacks 0 | tried chat[eu1:served]");
        assertThat(harness.upstreams().plans()).extracting(plan -> plan.deployment().id()).doesNotContain("std1");
    }

    @Test
    void untaggedRequestsGoToTheDefaultDeploymentOnly() {
        RouterHarness harness = RouterHarness.of(chat());
        harness.upstreams().always("std1", Step.serves());

        for (int i = 0; i < 5; i++) {
            assertThat(harness.route("chat").served()).hasValue("served by std1");
        }
    }

    @Test
    void aGroupWithNoDeploymentForTheTagsRefusesBeforeAnyCallAndFallsBackToAGroupThatHasOne() {
        RouterHarness harness = RouterHarness.of(filtering("chat/free1 free", "big/big-eu eu").router("fallbacks: [{chat: [big]}]"));
        harness.upstreams().always("big-eu", Step.serves());

        RouteOutcome<String> outcome = harness.route("chat", List.of("eu"));

        assertThat(harness.events().lines()).containsExactly(
                "@0 failed chat/- rejected",
                "@0 fallback chat->big rejected",
                "@0 attempt big/big-eu #0",
                "@0 ended big/big-eu served after 0ms");
        assertThat(OutcomeLine.of(outcome)).isEqualTo(
                "served by big-eu | last big/big-eu | retries 0 | fallbacks 1 | tried chat[] big[big-eu:served]");
    }

    @Test
    void aFallbackGroupWithNoDeploymentForTheTagsIsSkippedAndThePrimarysRefusalIsTheAnswer() {
        RouterHarness harness = RouterHarness.of(filtering("chat/free1 free", "big/big-free free")
                .router("fallbacks: [{chat: [big]}]"));

        RouteOutcome<String> outcome = harness.route("chat", List.of("eu"));

        assertThat(harness.upstreams().plans()).isEmpty();
        assertThat(harness.events().lines()).containsExactly("@0 failed chat/- rejected", "@0 skip chat->big no_tag_match");
        assertThat(outcome.failure()).hasValueSatisfying(at -> {
            assertThat(at.deployment()).isEmpty();
            assertThat(at.failure().kind()).isEqualTo(FailureClass.REJECTED);
            assertThat(at.failure().cause()).startsWith("Not allowed to access model due to tags configuration. Passed model=chat "
                    + "and tags=[eu]");
        });
        assertThat(SkipReason.NO_TAG_MATCH.sentence()).isEqualTo(" because none of its deployments matches the request's tags");
    }

    @Test
    void withFilteringOffTaggedDeploymentsServeEveryone() {
        RouterHarness harness = RouterHarness.of(config()
                .deployment("chat", "free1", "order: 1, tags: [free]", "")
                .deployment("chat", "std1", "order: 2, tags: [default]", ""));
        harness.upstreams().always("free1", Step.serves());

        assertThat(harness.route("chat", List.of("eu")).served()).hasValue("served by free1");
        assertThat(harness.route("chat").served()).hasValue("served by free1");
    }
}
