package dev.sluice.edge;

import dev.sluice.accounts.Caller;
import dev.sluice.call.RecentCall;
import dev.sluice.call.RecentCalls;
import dev.sluice.config.Deployment;
import dev.sluice.http.QueryParams;
import dev.sluice.wire.ApiError;
import java.util.Optional;

/**
 * Which recent calls {@code GET /calls/recent} answers, from its query: {@code model_group}
 * (the group that answered or any attempt's: a call to a group that fell back matches both),
 * {@code key_alias}, {@code deployment_id} (the deployment that served or any attempt's),
 * {@code status} ({@code success}: below 400, {@code failure}: 400 and above),
 * {@code call_id}, and {@code limit} (1 to {@link RecentCalls#DEFAULT_SIZE}, 100 by default).
 * A virtual key sees only its own calls, whatever it asks.
 */
record RecentCallFilter(Optional<String> group, Optional<String> keyAlias, Optional<String> deploymentId,
        Optional<Boolean> success, Optional<String> callId, int limit, Optional<String> onlyKeyHash) {
    static final int DEFAULT_LIMIT = 100;

    static RecentCallFilter of(QueryParams query, Caller caller) {
        Optional<Boolean> success = query.text("status").map(status -> switch (status) {
            case "success" -> true;
            case "failure" -> false;
            default -> throw ApiError.invalidRequest("Invalid 'status': \"" + (status.length() <= 60 ? status
                    : status.substring(0, 60) + "...") + "\" (expected: success or failure).", "status", "invalid_value");
        });
        int limit = query.number("limit", DEFAULT_LIMIT, 1, RecentCalls.DEFAULT_SIZE);
        Optional<String> own = caller instanceof Caller.Keyed keyed ? Optional.of(keyed.keyHash()) : Optional.empty();
        return new RecentCallFilter(query.text("model_group"), query.text("key_alias"), query.text("deployment_id"), success,
                query.text("call_id"), limit, own);
    }

    boolean matches(RecentCall call) {
        if (onlyKeyHash.isPresent() && !(call.caller() instanceof Caller.Keyed keyed && keyed.keyHash().equals(onlyKeyHash.get()))) {
            return false;
        }
        if (group.isPresent() && !group.get().equals(call.group())
                && call.attempts().stream().noneMatch(attempt -> group.get().equals(attempt.group()))) {
            return false;
        }
        if (keyAlias.isPresent() && !(call.caller() instanceof Caller.Keyed keyed
                && keyAlias.equals(keyed.key().keyAlias()))) {
            return false;
        }
        if (success.isPresent() && success.get() != call.status() < 400) {
            return false;
        }
        if (callId.isPresent() && !callId.get().equals(call.callId())) {
            return false;
        }
        return deploymentId.isEmpty() || deploymentId.equals(call.deployment().map(Deployment::id))
                || call.attempts().stream().anyMatch(attempt -> deploymentId.get().equals(attempt.deploymentId()));
    }
}
