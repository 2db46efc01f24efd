package dev.sluice.edge;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.accounts.Authenticator;
import dev.sluice.accounts.Caller;
import dev.sluice.call.RecentCall;
import dev.sluice.config.Deployment;
import dev.sluice.http.QueryParams;
import dev.sluice.http.Replies;
import dev.sluice.wire.Json;
import io.vertx.core.http.HttpServerRequest;

/**
 * The live data the admin UI reads: {@code GET /model/state}, each deployment's bench and
 * recent failures, and {@code GET /calls/recent}, this replica's last calls. The master key
 * sees everything; a virtual key sees the deployments of the groups it may use, without their
 * failures' messages (those come from every key's calls), and its own calls with theirs.
 * Both read memory only and answer on the event loop.
 */
record DataHandlers(EdgeServices gateway, LiveState live, Authenticator authenticator) {

    /** {@code GET /model/state}: {@code {"deployments": [...]}} as {@link DeploymentStateView} shows each. */
    void modelState(HttpServerRequest request) {
        authenticator.withCaller(request, caller -> {
            // A virtual key sees shared deployments: their failures' messages may quote other keys' calls.
            boolean withMessages = !(caller instanceof Caller.Keyed);
            ArrayNode deployments = JsonNodeFactory.instance.arrayNode();
            for (Deployment deployment : gateway.models().deployments()) {
                if (gateway.access().mayUse(caller, deployment.modelName())) {
                    deployments.add(DeploymentStateView.of(deployment, live, withMessages));
                }
            }
            ObjectNode body = JsonNodeFactory.instance.objectNode();
            body.set("deployments", deployments);
            Replies.json(request.response(), 200, Json.buffer(body));
        });
    }

    /** {@code GET /calls/recent}: {@code {"calls": [...]}}, newest first, as {@link RecentCallView} shows each. */
    void recentCalls(HttpServerRequest request) {
        authenticator.withCaller(request, caller -> {
            RecentCallFilter filter = RecentCallFilter.of(QueryParams.of(request), caller);
            ArrayNode calls = JsonNodeFactory.instance.arrayNode();
            for (RecentCall call : live.calls().newestFirst()) {
                if (calls.size() == filter.limit()) {
                    break;
                }
                if (filter.matches(call)) {
                    calls.add(RecentCallView.of(call));
                }
            }
            ObjectNode body = JsonNodeFactory.instance.objectNode();
            body.set("calls", calls);
            Replies.json(request.response(), 200, Json.buffer(body));
        });
    }
}
