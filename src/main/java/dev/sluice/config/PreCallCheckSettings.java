package dev.sluice.config;

import java.util.List;

/**
 * Which deployments of a group a request may go to before one is picked.
 *
 * @param enablePreCallChecks   {@code enable_pre_call_checks}: a deployment whose context window the
 *                              request does not fit is left out
 * @param optionalPreCallChecks {@code optional_pre_call_checks}, by LiteLLM's names, each once
 * @param enableTagFiltering    {@code enable_tag_filtering}: a request goes only to the deployments of a
 *                              group whose {@code litellm_params.tags} match its tags (see
 *                              the router's {@code TagFilter})
 * @param tagFilteringMatchAny  {@code tag_filtering_match_any}: a deployment matches when it carries any
 *                              of the request's tags ({@code true}, LiteLLM's default), or only when it
 *                              carries every one of them
 */
public record PreCallCheckSettings(
        boolean enablePreCallChecks,
        List<String> optionalPreCallChecks,
        boolean enableTagFiltering,
        boolean tagFilteringMatchAny) {

    /** The same checks with tag filtering on or off. */
    public PreCallCheckSettings withEnableTagFiltering(boolean enabled) {
        return new PreCallCheckSettings(enablePreCallChecks, optionalPreCallChecks, enabled, tagFilteringMatchAny);
    }
}
