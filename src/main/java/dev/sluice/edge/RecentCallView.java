package dev.sluice.edge;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.accounts.Caller;
import dev.sluice.call.RecentCall;
import dev.sluice.config.Deployment;
import dev.sluice.store.Team;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;

/**
 * One call as {@code GET /calls/recent} shows it: who called (the key's alias, its masked
 * name and team, never the key), which group and deployment, how it ended, each attempt,
 * and the {@code x-litellm-*} and {@code x-ratelimit-*} headers its answer carried.
 * Built only when the route is read.
 */
final class RecentCallView {
    private RecentCallView() {}

    static ObjectNode of(RecentCall call) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode view = f.objectNode()
                .put("call_id", call.callId())
                .put("started_at", Instant.ofEpochMilli(call.startedMillis()).toString());
        if (call.caller() instanceof Caller.Keyed keyed) {
            view.put("key_alias", keyed.key().keyAlias().orElse(null))
                    .put("key_name", keyed.key().keyName())
                    .put("team_id", keyed.team().map(Team::teamId).orElse(keyed.key().owner().teamId().orElse(null)));
        } else {
            view.putNull("key_alias").putNull("key_name").putNull("team_id");
        }
        view.put("model_group", call.group())
                .put("deployment_id", call.deployment().map(Deployment::id).orElse(null))
                .put("status", call.status())
                .put("latency_ms", call.latencyMillis())
                .put("cost", call.cost())
                .put("retries", call.retries())
                .put("fallbacks", call.fallbacks())
                .put("cache_hit", call.cacheHit())
                .put("stream", call.stream());
        ArrayNode attempts = view.putArray("attempts");
        for (RecentCall.Attempt attempt : call.attempts()) {
            ObjectNode shown = attempts.addObject()
                    .put("model_group", attempt.group())
                    .put("deployment_id", attempt.deploymentId())
                    .put("failure_class", attempt.failureClass() == null ? null : attempt.failureClass().wireName());
            if (attempt.status() > 0) {
                shown.put("status", attempt.status());
            } else {
                shown.putNull("status");
            }
            shown.put("message", attempt.message());
        }
        ObjectNode headers = view.putObject("headers");
        if (call.headers() != null) {
            for (Map.Entry<String, String> header : call.headers()) {
                String name = header.getKey().toLowerCase(Locale.ROOT);
                if ((name.startsWith("x-litellm-") || name.startsWith("x-ratelimit-")) && !headers.has(name)) {
                    headers.put(name, header.getValue());
                }
            }
        }
        return view;
    }
}
