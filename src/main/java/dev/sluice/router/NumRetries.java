package dev.sluice.router;

import dev.sluice.config.RouterSettings;
import dev.sluice.failure.FailureClass;
import java.util.Map;

/**
 * How many retries (repeats and sibling failovers) a group gets after a failure of a given
 * class, most specific source first: the caller's own count; the group's retry policy for
 * the class (the caller's, then the config's {@code model_group_retry_policy}); the
 * router's {@code retry_policy} for the class; the router's {@code num_retries} (which
 * already falls back to {@code litellm_settings} and then to 2).
 */
final class NumRetries {
    private NumRetries() {}

    static int resolve(RouterSettings router, CallerOverrides caller, String group, FailureClass kind) {
        if (caller.numRetries().isPresent()) {
            return caller.numRetries().getAsInt();
        }
        String key = kind.retryPolicyKey();
        if (key != null) {
            Integer fromGroup = lookup(caller.modelGroupRetryPolicy(), group, key);
            if (fromGroup == null) {
                fromGroup = lookup(router.retries().modelGroupRetryPolicy(), group, key);
            }
            if (fromGroup != null) {
                return fromGroup;
            }
            Integer fromRouter = router.retries().retryPolicy().get(key);
            if (fromRouter != null) {
                return fromRouter;
            }
        }
        return router.retries().numRetries();
    }

    private static Integer lookup(Map<String, Map<String, Integer>> byGroup, String group, String key) {
        Map<String, Integer> policy = byGroup.get(group);
        return policy == null ? null : policy.get(key);
    }
}
