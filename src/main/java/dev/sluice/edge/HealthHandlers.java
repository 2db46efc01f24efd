package dev.sluice.edge;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.accounts.Authenticator;
import dev.sluice.accounts.Caller;
import dev.sluice.config.Deployment;
import dev.sluice.http.QueryParams;
import dev.sluice.http.Replies;
import dev.sluice.ops.health.HealthChecks;
import dev.sluice.ops.health.HealthReport;
import dev.sluice.ops.health.ProbeResult;
import dev.sluice.vendors.upstream.UpstreamClient;
import dev.sluice.wire.ApiError;
import dev.sluice.wire.Json;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import java.util.List;
import java.util.function.Predicate;

/**
 * {@code GET /health}: LiteLLM's report of which deployments answer a real call, from probes
 * sent now or from the latest background round ({@link HealthChecks}). Probes are sent only for
 * the master key (or on a gateway without one): each is a real call on a deployment's own key,
 * outside any virtual key's budget and limits. A virtual key sees only the groups it may call,
 * from the latest background round, and is refused (403) when background rounds are off.
 * {@code ?model=<group>} narrows it to one group. One instance per event loop.
 */
public record HealthHandlers(Vertx vertx, EdgeServices gateway, Authenticator authenticator, UpstreamClient upstreams) {

    void health(HttpServerRequest request) {
        authenticator.withCaller(request, caller -> report(request, caller));
    }

    private void report(HttpServerRequest request, Caller caller) {
        String group = QueryParams.of(request).raw("model").orElse(null);
        if (group != null && (gateway.models().current().find(group).isEmpty() || !gateway.access().mayUse(caller, group))) {
            throw unknownGroup(group, caller);
        }
        Predicate<Deployment> shown = d -> (group == null || d.modelName().equals(group)) && gateway.access().mayUse(caller, d.modelName());
        HealthChecks health = gateway.health();
        if (!health.inBackground() && caller instanceof Caller.Keyed) {
            // A probe is a real call on the deployment's own key, outside the caller's budget and limits.
            throw new ApiError(403, "permission_error", "Probing deployments needs the master key. A virtual key sees "
                    + "its groups' health from the latest background round, which general_settings.background_health_checks "
                    + "turns on.", null, "master_key_required");
        }
        if (!health.inBackground()) {
            List<Deployment> probed = gateway.models().deployments().stream().filter(shown).toList();
            health.probe(probed, upstreams).onComplete(done -> answer(request, done.result()));
            return;
        }
        // The latest round completes on the rounds' own event loop; the answer is written on this one.
        Context here = vertx.getOrCreateContext();
        health.latest().whenComplete((report, failed) -> here.runOnContext(v -> {
            if (failed != null) {
                Replies.internalError(request.response(), request.path(), failed);
                return;
            }
            answer(request, report.only(shown));
        }));
    }

    private ApiError unknownGroup(String group, Caller caller) {
        return gateway.access().unknownGroup(caller, group, gateway.models().current().names());
    }

    /** LiteLLM's shape, with when the probes were sent; API keys never appear. */
    private static void answer(HttpServerRequest request, HealthReport report) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ArrayNode healthy = f.arrayNode();
        ArrayNode unhealthy = f.arrayNode();
        report.healthy().forEach(result -> healthy.add(endpoint(result)));
        report.unhealthy().forEach(result -> unhealthy.add(endpoint(result)));
        ObjectNode body = f.objectNode();
        body.set("healthy_endpoints", healthy);
        body.set("unhealthy_endpoints", unhealthy);
        body.put("healthy_count", healthy.size())
                .put("unhealthy_count", unhealthy.size())
                .put("checked_at", report.checkedAt().toString());
        Replies.json(request.response(), 200, Json.buffer(body));
    }

    private static ObjectNode endpoint(ProbeResult result) {
        Deployment d = result.deployment();
        ObjectNode endpoint = JsonNodeFactory.instance.objectNode()
                .put("model", d.params().model())
                .put("api_base", d.params().endpoint().apiBase().orElse(null))
                .put("model_name", d.modelName())
                .put("model_id", d.id());
        if (!result.healthy()) {
            endpoint.put("error", result.error());
            result.failure().ifPresent(failure -> endpoint.put("failure_class", failure.kind().wireName()));
            result.benchedUntil().ifPresent(until -> endpoint.put("benched_until", until.toString()));
        }
        return endpoint;
    }
}
