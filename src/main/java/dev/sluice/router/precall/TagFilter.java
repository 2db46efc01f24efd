package dev.sluice.router.precall;

import dev.sluice.config.Deployment;
import dev.sluice.config.RouterSettings;
import dev.sluice.failure.Failure;
import dev.sluice.failure.FailureClass;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Which deployments of a model group may take a request, by its tags: LiteLLM's tag-based
 * routing ({@code router_settings.enable_tag_filtering}). A deployment's tags are its
 * {@code litellm_params.tags}; a request's are those of its body, its {@code x-litellm-tags}
 * header and its caller's key and team.
 *
 * <ol>
 *   <li><b>filtering off</b> (the default): every deployment, whatever the tags;
 *   <li><b>a tagged request</b>: the deployments carrying any of its tags (every one of them
 *       with {@code tag_filtering_match_any: false}); when none does, the deployments tagged
 *       {@code default}, as LiteLLM does; when none is, no deployment: the group refuses the
 *       request before any call, with a {@link FailureClass#REJECTED} failure (a 400 naming the
 *       group and the tags), which goes on to {@code fallbacks} like any rejection;
 *   <li><b>an untagged request</b>: the deployments tagged {@code default}; when none is, the
 *       untagged ones; when every deployment is tagged, all of them (LiteLLM's rule: an untagged
 *       request is never refused).
 * </ol>
 *
 * <p>Design notes. The filter reads a group's whole deployment list, benched deployments
 * included, once for each group a request runs through, before the {@link PreCallChecks} and
 * the strategy narrow what is left; what it leaves out is simply not a candidate for that
 * request: not for its first pick, a sibling failover or a repeat. Deciding on the whole list
 * rather than on the healthy deployments means a tagged request whose only matching deployment
 * is benched or has failed waits for it or fails, and is never moved to the {@code default}
 * deployments (LiteLLM decides the same way once a tag is known to the group). Benches are
 * still judged on the whole group: a deployment left alone by the filter is not its group's
 * last one.
 */
public final class TagFilter {
    /** The tag of the deployments untagged requests go to (and tagged ones that match nothing). */
    public static final String DEFAULT_TAG = "default";

    /** No filtering: tags change nothing. */
    public static final TagFilter OFF = new TagFilter(false, true);

    private final boolean on;
    private final boolean matchAny;

    private TagFilter(boolean on, boolean matchAny) {
        this.on = on;
        this.matchAny = matchAny;
    }

    /** The filter a request routed with {@code settings} uses. */
    public static TagFilter of(RouterSettings settings) {
        return settings.preCallChecks().enableTagFiltering() ? new TagFilter(true, settings.preCallChecks().tagFilteringMatchAny()) : OFF;
    }

    /**
     * What the filter leaves of one group for one request.
     *
     * @param kept    the deployments the request may go to, in the group's order; empty only
     *                with a refusal
     * @param refusal why none may, when none may
     */
    public record Tagged(List<Deployment> kept, Optional<Failure> refusal) {
        public Tagged {
            kept = List.copyOf(kept);
        }
    }

    /**
     * @param group       the group's name, for the refusal
     * @param deployments every deployment of the group, benched ones included
     * @param tags        the request's tags, each once
     */
    public Tagged apply(String group, List<Deployment> deployments, List<String> tags) {
        if (!on) {
            return new Tagged(deployments, Optional.empty());
        }
        List<Deployment> tagged = tags.isEmpty() ? List.of() : those(deployments, d -> matches(d.params().tags(), tags));
        if (!tagged.isEmpty()) {
            return new Tagged(tagged, Optional.empty());
        }
        List<Deployment> defaults = those(deployments, d -> d.params().tags().contains(DEFAULT_TAG));
        if (!defaults.isEmpty()) {
            return new Tagged(defaults, Optional.empty());
        }
        if (!tags.isEmpty()) {
            return new Tagged(List.of(), Optional.of(Failure.of(FailureClass.REJECTED, noMatch(group, tags))));
        }
        List<Deployment> untagged = those(deployments, d -> d.params().tags().isEmpty());
        return new Tagged(untagged.isEmpty() ? deployments : untagged, Optional.empty());
    }

    private boolean matches(List<String> deploymentTags, List<String> requestTags) {
        if (deploymentTags.isEmpty()) {
            return false;
        }
        return matchAny ? requestTags.stream().anyMatch(deploymentTags::contains) : deploymentTags.containsAll(requestTags);
    }

    private static List<Deployment> those(List<Deployment> deployments, Predicate<Deployment> rule) {
        List<Deployment> kept = new ArrayList<>(deployments.size());
        for (Deployment d : deployments) {
            if (rule.test(d)) {
                kept.add(d);
            }
        }
        return kept;
    }

    /** LiteLLM's words for the refusal, then which rule left nothing. */
    private String noMatch(String group, List<String> tags) {
        String rule = matchAny ? "any of these tags" : "all of these tags (router_settings.tag_filtering_match_any is false)";
        return "Not allowed to access model due to tags configuration. Passed model=" + group + " and tags=" + tags
                + ": no deployment of model group '" + group + "' carries " + rule + ", and none is tagged '" + DEFAULT_TAG + "'.";
    }
}
