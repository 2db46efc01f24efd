package dev.sluice.edge;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.accounts.Authenticator;
import dev.sluice.accounts.Caller;
import dev.sluice.config.MetricsAccess;
import dev.sluice.http.QueryParams;
import dev.sluice.http.Replies;
import dev.sluice.http.SluiceVersion;
import dev.sluice.ops.metrics.GatewayMetrics;
import dev.sluice.ops.overload.Overload;
import dev.sluice.store.StoreStatus;
import dev.sluice.store.journal.SpendShippingStatus;
import dev.sluice.store.redis.RedisHealth;
import dev.sluice.store.redis.RedisLink;
import dev.sluice.wire.ApiError;
import dev.sluice.wire.Json;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;

/** The answers that involve no upstream: the model list and the probes of the gateway itself. */
public record InfoHandlers(Vertx vertx, EdgeServices gateway, Authenticator authenticator, MetricsAccess metricsAccess,
        Overload overload) {
    private static final Buffer ALIVE = Buffer.buffer("\"I'm alive!\"");
    /** The longest readiness waits for the database to answer its probe. */
    static final Duration PROBE_WAIT = Duration.ofSeconds(1);
    /** Why readiness fails while the store is away and no key could be checked without it. */
    static final String NO_KEY_CHECKABLE = "virtual keys cannot be checked: the key store is unreachable, this replica "
            + "holds no key in memory and no copy of a key can be read from Redis";

    /**
     * {@code GET /v1/models}: what the caller may call, in OpenAI's list shape ({@link CallableModels});
     * {@code ?include_model_access_groups=true} adds the access groups it is granted,
     * {@code ?only_model_access_groups=true} lists those alone.
     */
    void models(HttpServerRequest request) {
        authenticator.withCaller(request, caller -> models(request, caller));
    }

    private void models(HttpServerRequest request, Caller caller) {
        QueryParams query = QueryParams.of(request);
        boolean onlyAccessGroups = query.flag("only_model_access_groups", false);
        boolean withAccessGroups = onlyAccessGroups || query.flag("include_model_access_groups", false);
        CallableModels callable = new CallableModels(gateway.models().current(), gateway.routerSettings().current().routing().modelGroupAlias(),
                caller instanceof Caller.Keyed keyed ? keyed.key().models() : List.of(), called -> gateway.access().mayUse(caller, called));
        List<String> names = new ArrayList<>(onlyAccessGroups ? List.of() : callable.names());
        if (withAccessGroups) {
            names.addAll(callable.accessGroups());
        }
        JsonNodeFactory f = JsonNodeFactory.instance;
        ArrayNode data = f.arrayNode();
        for (String name : names) {
            data.addObject()
                    .put("id", name)
                    .put("object", "model")
                    .put("created", gateway.startedEpochSecond())
                    .put("owned_by", "sluice");
        }
        ObjectNode list = f.objectNode().put("object", "list");
        list.set("data", data);
        Replies.json(request.response(), 200, Json.buffer(list));
    }

    /**
     * {@code GET /model/info} and {@code /v1/model/info}: every deployment served, as
     * {@link DeploymentView} shows it (never its API key); a virtual key sees those of the
     * groups it may use. {@code ?litellm_model_id=} narrows the list to one deployment.
     */
    void modelInfo(HttpServerRequest request) {
        authenticator.withCaller(request, caller -> {
            String only = QueryParams.of(request).raw("litellm_model_id").orElse(null);
            ArrayNode data = JsonNodeFactory.instance.arrayNode();
            var registry = gateway.models();
            for (var deployment : registry.deployments()) {
                if ((only == null || only.equals(deployment.id())) && gateway.access().mayUse(caller, deployment.modelName())) {
                    data.add(DeploymentView.of(deployment, !registry.isConfigured(deployment.id()), gateway.catalog()));
                }
            }
            ObjectNode body = JsonNodeFactory.instance.objectNode();
            body.set("data", data);
            Replies.json(request.response(), 200, Json.buffer(body));
        });
    }

    /**
     * {@code GET /metrics}: the metrics in Prometheus's text format. Open by default, as
     * LiteLLM's is, so liveness tooling can scrape it; but the series that name model groups,
     * deployments and tags (what the operator configured) go only to the master key, unless
     * {@link MetricsAccess#namesPublic()}. With {@link MetricsAccess#keyRequired()} the route
     * needs a key at all. A gateway without a master key shows everything to everyone.
     */
    void metrics(HttpServerRequest request) {
        if (!gateway.access().required()) {
            metrics(request, true);
        } else if (metricsAccess.keyRequired()) {
            authenticator.withCaller(request, caller -> metrics(request, metricsAccess.namesPublic() || caller.isAdmin()));
        } else {
            metrics(request, metricsAccess.namesPublic()
                    || gateway.access().isMasterKey(authenticator.presentedKeyOrNone(request)));
        }
    }

    private void metrics(HttpServerRequest request, boolean named) {
        request.response().putHeader("Content-Type", GatewayMetrics.CONTENT_TYPE);
        GatewayMetrics metrics = gateway.metrics();
        Replies.raw(request.response(), 200, Buffer.buffer(named ? metrics.render() : metrics.renderUnnamed()));
    }

    /**
     * {@code GET /health/liveliness}: the process answers, its event loops turn, and it is not
     * thrashing in the collector; else 503 naming why, so that an orchestrator replaces it
     * ({@link dev.sluice.ops.overload.Liveness}). Nothing outside the process (store, Redis) is checked.
     */
    void liveliness(HttpServerRequest request) {
        overload.liveness().problem().ifPresentOrElse(
                problem -> Replies.error(request.response(), new ApiError(503, "service_unavailable",
                        "Sluice is not alive: " + problem + ".", null, "not_alive")),
                () -> Replies.json(request.response(), 200, ALIVE));
    }

    /**
     * {@code GET /health/readiness}: ready to serve, and the state of each store, in LiteLLM's
     * shape ({@code status}, {@code db}: {@code connected} or {@code Not connected} when no store
     * is configured, {@code cache}, {@code litellm_version}, {@code success_callbacks},
     * {@code last_updated}) with Sluice's own details after it. An
     * unreachable database leaves the gateway ready while it can still check virtual keys (it
     * holds some in memory, or their copies in Redis can be read): they keep working and spend
     * is buffered, so taking every replica out of rotation would only make it worse. A replica
     * that could check no virtual key (started during the outage, without Redis) answers 503
     * with the reason, so a load balancer sends its calls to one that can.
     */
    void readiness(HttpServerRequest request) {
        if (gateway.accounts().isEmpty()) {
            readiness(request, "Not connected", null, true);
            return;
        }
        // A probe of an unreachable database can wait out the connection timeout; readiness
        // answers within PROBE_WAIT whatever the database does.
        // Where the database is (its host, user and name) and why it cannot be reached are the
        // operator's to see: shown only to the master key, as readiness needs no key at all.
        boolean detailed = !gateway.access().required() || gateway.access().isMasterKey(authenticator.presentedKeyOrNone(request));
        Promise<Void> answered = Promise.promise();
        long timer = vertx.setTimer(PROBE_WAIT.toMillis(), id -> {
            if (answered.tryComplete()) {
                readiness(request, "unreachable: no answer to a probe within " + PROBE_WAIT.toMillis() + " ms", null, false);
            }
        });
        vertx.executeBlocking(() -> gateway.accounts().get().status(), false).onComplete(probe -> {
            vertx.cancelTimer(timer);
            if (!answered.tryComplete()) {
                return;
            }
            if (probe.failed()) {
                readiness(request, detailed ? "unreachable: " + probe.cause().getMessage() : "unreachable", null, false);
                return;
            }
            StoreStatus status = probe.result();
            readiness(request, detailed || status.connected() ? status.describe() : "unreachable",
                    detailed ? status.location() : null, status.connected());
        });
    }

    private void readiness(HttpServerRequest request, String db, String location, boolean storeAnswered) {
        boolean keysCheckable = storeAnswered || gateway.access().canCheckKeysWithoutStore();
        ObjectNode body = JsonNodeFactory.instance.objectNode()
                .put("status", keysCheckable ? "healthy" : "unhealthy")
                .put("db", db);
        if (!keysCheckable) {
            body.put("not_ready_reason", NO_KEY_CHECKABLE);
        }
        if (location != null) {
            body.put("db_location", location);
        }
        if (gateway.accounts().isPresent()) {
            body.put("last_updated", LocalDateTime.now(gateway.clock()).toString()); // as LiteLLM: when the database was probed
        }
        body.put("cache", gateway.readiness().cacheType().orElse(null))
                .put("litellm_version", SluiceVersion.CURRENT);
        gateway.readiness().successCallbacks().forEach(body.putArray("success_callbacks")::add);
        gateway.accounts().ifPresent(accounts -> {
            SpendShippingStatus spend = accounts.spendStatus();
            body.putObject("spend_log")
                    // No row waits in memory since the spend journal; the field stays for those who read it.
                    .put("rows_waiting", 0)
                    .put("rows_buffered_on_disk", spend.rowsPending())
                    .put("bytes_buffered_on_disk", spend.bytesOnDisk())
                    .put("store_took_last_post", spend.sinkReachable())
                    .put("dead_letters", spend.deadLetters());
        });
        body.put("router_state", gateway.redis()
                        .map(link -> link.isUp() ? "redis: connected" : "redis: unreachable, serving on local state")
                        .orElse("in-memory"))
                .put("model_groups", gateway.models().current().names().size())
                .put("deployments", gateway.models().deployments().size());
        gateway.redis().ifPresent(link -> {
            RedisHealth health = link.health();
            ObjectNode redis = body.putObject("redis")
                    .put("outages", health.outages())
                    .put("call_failures", health.callFailures())
                    .put("decided_locally", health.decidedLocally())
                    .put("replicas_seen", health.replicasSeen());
            health.downSince().ifPresent(since -> redis.put("down_since", since.toString()));
        });
        if (!keysCheckable) {
            request.response().putHeader("Retry-After", "5");
        }
        Replies.json(request.response(), keysCheckable ? 200 : 503, Json.buffer(body));
    }
}
