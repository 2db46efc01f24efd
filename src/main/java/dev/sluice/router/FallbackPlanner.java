package dev.sluice.router;

import dev.sluice.config.RouterSettings;
import dev.sluice.failure.FailureClass;
import java.util.List;
import java.util.Map;

/**
 * Which groups a request goes to once its group is exhausted, in order, before the
 * already-tried and unknown ones are skipped: the list is read off the class of the
 * failure the group ended with.
 *
 * <ul>
 *   <li>guardrail: none, ever (the refusal is about the request, not the backend);
 *   <li>context_window: the group's {@code context_window_fallbacks} (the caller's, then the
 *       config's); content_policy: its {@code content_policy_fallbacks} likewise; when the
 *       group has no such list, the general list below applies, as in LiteLLM;
 *   <li>everything else: the caller's {@code fallbacks} when sent, else the group's
 *       {@code fallbacks}, else the {@code "*"} entry of {@code fallbacks}, else
 *       {@code default_fallbacks}.
 * </ul>
 *
 * {@code disable_fallbacks} from the caller turns all of it off.
 */
final class FallbackPlanner {
    private final RouterSettings router;

    FallbackPlanner(RouterSettings router) {
        this.router = router;
    }

    List<String> targets(String group, FailureClass endedWith, CallerOverrides caller) {
        if (caller.disableFallbacks() || endedWith.fallbacks() == FailureClass.Fallbacks.NONE) {
            return List.of();
        }
        List<String> specific = switch (endedWith.fallbacks()) {
            case CONTEXT_WINDOW -> listFor(group, caller.contextWindowFallbacks(), router.fallbacks().contextWindowFallbacks());
            case CONTENT_POLICY -> listFor(group, caller.contentPolicyFallbacks(), router.fallbacks().contentPolicyFallbacks());
            case GENERAL, NONE -> null;
        };
        if (specific != null) {
            return specific;
        }
        if (caller.fallbacks().isPresent()) {
            return caller.fallbacks().get();
        }
        List<String> own = router.fallbacks().fallbacks().get(group);
        if (own != null) {
            return own;
        }
        List<String> wildcard = router.fallbacks().fallbacks().get("*");
        return wildcard != null ? wildcard : router.fallbacks().defaultFallbacks();
    }

    private static List<String> listFor(String group, Map<String, List<String>> fromCaller, Map<String, List<String>> fromConfig) {
        List<String> list = fromCaller.get(group);
        return list != null ? list : fromConfig.get(group);
    }
}
