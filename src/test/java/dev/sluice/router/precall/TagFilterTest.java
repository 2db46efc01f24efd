package dev.sluice.router.precall;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.Deployment;
import dev.sluice.config.RouterSettings;
import dev.sluice.failure.FailureClass;
import dev.sluice.router.precall.TagFilter.Tagged;
import dev.sluice.testing.Configs;
import dev.sluice.testing.Deployments;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each rule of the tag filter, on both sides: which deployments of a group a request's tags leave it. */
class TagFilterTest {
    private static final TagFilter ANY = TagFilter.of(settings("enable_tag_filtering: true"));
    private static final TagFilter ALL = TagFilter.of(settings("enable_tag_filtering: true, tag_filtering_match_any: false"));

    /** d0 free, d1 paid, d2 paid and eu, d3 default, d4 untagged. */
    private static final List<Deployment> MIXED = Deployments.of("model: openai/a, tags: [free]", "model: openai/b, tags: [paid]",
            "model: openai/c, tags: [paid, eu]", "model: openai/d, tags: [default]", "model: openai/e");

    private static RouterSettings settings(String routerSettings) {
        try {
            return Configs.parse(Configs.withSection("router_settings: {" + routerSettings + "}")).router();
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static List<String> kept(TagFilter filter, List<Deployment> group, String... tags) {
        Tagged tagged = filter.apply("g", group, List.of(tags));
        assertThat(tagged.refusal()).as("refused %s", List.of(tags)).isEmpty();
        return tagged.kept().stream().map(Deployment::id).toList();
    }

    @Test
    void aTaggedRequestGoesOnlyToTheDeploymentsCarryingOneOfItsTags() {
        assertThat(kept(ANY, MIXED, "paid")).containsExactly("d1", "d2");
        assertThat(kept(ANY, MIXED, "free", "eu")).containsExactly("d0", "d2");
        assertThat(kept(ANY, MIXED, "eu")).containsExactly("d2");
    }

    @Test
    void withMatchAnyOffADeploymentMustCarryEveryTagOfTheRequest() {
        assertThat(kept(ALL, MIXED, "paid", "eu")).containsExactly("d2");
        assertThat(kept(ALL, MIXED, "paid")).containsExactly("d1", "d2");
        // free and eu are on no one deployment together: the default deployment takes it.
        assertThat(kept(ALL, MIXED, "free", "eu")).containsExactly("d3");
    }

    @Test
    void aTaggedRequestMatchingNothingGoesToTheDefaultDeploymentsWhenTheGroupHasAny() {
        assertThat(kept(ANY, MIXED, "gold")).containsExactly("d3");
    }

    @Test
    void aTaggedRequestMatchingNothingInAGroupWithoutDefaultIsRefusedNamingTheGroupAndTags() {
        List<Deployment> group = Deployments.of("model: openai/a, tags: [free]", "model: openai/b");

        Tagged tagged = ANY.apply("g", group, List.of("gold", "silver"));

        assertThat(tagged.kept()).isEmpty();
        assertThat(tagged.refusal()).hasValueSatisfying(failure -> {
            assertThat(failure.kind()).isEqualTo(FailureClass.REJECTED);
            assertThat(failure.answered()).isFalse();
            assertThat(failure.cause()).isEqualTo("Not allowed to access model due to tags configuration. Passed model=g and "
                    + "tags=[gold, silver]: no deployment of model group 'g' carries any of these tags, and none is tagged 'default'.");
        });
        assertThat(ALL.apply("g", group, List.of("free", "eu")).refusal()).hasValueSatisfying(failure ->
                assertThat(failure.cause()).contains("carries all of these tags (router_settings.tag_filtering_match_any is false)"));
    }

    @Test
    void anUntaggedRequestGoesToTheDefaultDeploymentsWhenTheGroupHasAny() {
        assertThat(kept(ANY, MIXED)).containsExactly("d3");
    }

    @Test
    void anUntaggedRequestGoesToTheUntaggedDeploymentsWhenNoneIsDefault() {
        List<Deployment> group = Deployments.of("model: openai/a, tags: [free]", "model: openai/b", "model: openai/c, tags: []");

        assertThat(kept(ANY, group)).containsExactly("d1", "d2");
    }

    @Test
    void anUntaggedRequestToAGroupTaggedThroughoutWithoutDefaultGoesAnywhereAsInLiteLlm() {
        List<Deployment> group = Deployments.of("model: openai/a, tags: [free]", "model: openai/b, tags: [paid]");

        assertThat(kept(ANY, group)).containsExactly("d0", "d1");
    }

    @Test
    void aDefaultTaggedDeploymentThatAlsoCarriesTheRequestsTagIsAMatchLikeAnyOther() {
        List<Deployment> group = Deployments.of("model: openai/a, tags: [paid]", "model: openai/b, tags: [default, eu]");

        assertThat(kept(ANY, group, "eu")).containsExactly("d1");
        assertThat(kept(ANY, group, "paid")).containsExactly("d0");
    }

    @Test
    void withFilteringOffTagsChangeNothing() {
        TagFilter off = TagFilter.of(settings("enable_tag_filtering: false"));

        assertThat(kept(off, MIXED, "paid")).containsExactly("d0", "d1", "d2", "d3", "d4");
        assertThat(kept(off, MIXED, "gold")).containsExactly("d0", "d1", "d2", "d3", "d4");
        assertThat(kept(off, MIXED)).containsExactly("d0", "d1", "d2", "d3", "d4");
        assertThat(TagFilter.of(settings("num_retries: 1"))).isSameAs(TagFilter.OFF);
    }
}
