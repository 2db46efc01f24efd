package dev.sluice.call;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.accounts.AccessControl;
import dev.sluice.accounts.Authenticator;
import dev.sluice.accounts.CalledModel;
import dev.sluice.catalog.PromptTokens;
import dev.sluice.catalog.TokenEncoding;
import dev.sluice.config.Deployment;
import dev.sluice.http.BodyLimits;
import dev.sluice.http.Hops;
import dev.sluice.http.Replies;
import dev.sluice.http.RequestBodyReader;
import dev.sluice.model.ModelRequest;
import dev.sluice.router.LiveRouterSettings;
import dev.sluice.router.ModelGroup;
import dev.sluice.router.ModelRegistry;
import dev.sluice.vendors.Provider;
import dev.sluice.vendors.Providers;
import dev.sluice.vendors.UpstreamRequest;
import dev.sluice.vendors.entry.IngressCodec;
import dev.sluice.vendors.upstream.UpstreamClient;
import dev.sluice.vendors.upstream.UpstreamExchange;
import dev.sluice.wire.ApiError;
import dev.sluice.wire.Json;
import dev.sluice.wire.JsonReading;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts a call's input tokens without making it ({@code POST /v1/messages/count_tokens}).
 * A group with a deployment that counts for the caller's dialect (Anthropic's own
 * {@code count_tokens}) asks it; otherwise, or when that deployment cannot answer, the gateway
 * counts the call in OpenAI's form with the group's tokenizer. Either way the answer is
 * {@code {"input_tokens": N}}, and {@value #SOURCE_HEADER} says who counted. The caller is
 * authenticated and must be allowed the group, as for a call; nothing is charged.
 */
final class TokenCounter {
    static final String SOURCE_HEADER = "x-sluice-token-count";
    private static final Logger log = LoggerFactory.getLogger(TokenCounter.class);
    private static final PromptTokens PROMPT_TOKENS = new PromptTokens();
    private static final Duration DEFAULT_DEADLINE = Duration.ofSeconds(30);

    /**
     * What a count uses of the gateway's shared services.
     *
     * @param models    the model groups served now
     * @param access    whether the caller may use the group it names
     * @param providers the provider adapters, whose deployments may count
     * @param settings  the router settings in effect ({@code model_group_alias})
     * @param bodies    what a call's body may be
     * @param instance  this gateway's own mark on the calls it sends upstream ({@link Hops})
     */
    record Services(ModelRegistry models, AccessControl access, Providers providers, LiveRouterSettings settings,
            BodyLimits bodies, String instance) {}

    private final Vertx vertx;
    private final Services services;
    private final UpstreamClient upstreams;
    private final Authenticator authenticator;
    private final RequestBodyReader bodies;

    TokenCounter(Vertx vertx, Services services, UpstreamClient upstreams, Authenticator authenticator,
            RequestBodyReader bodies) {
        this.vertx = vertx;
        this.services = services;
        this.upstreams = upstreams;
        this.authenticator = authenticator;
        this.bodies = bodies;
    }

    /** A count, and who made it: {@code deployment} or {@code local}. */
    private record Counted(long inputTokens, String source) {}

    void handle(HttpServerRequest request, IngressCodec codec) {
        HttpServerResponse response = request.response();
        Promise<Void> done = Promise.promise();
        response.endHandler(v -> done.tryComplete());
        response.closeHandler(v -> done.tryComplete());
        Future.<Void>succeededFuture()
                .map(v -> {
                    Hops.check(request, services.instance());
                    return null;
                })
                .compose(v -> authenticator.caller(request))
                .transform(who -> {
                    Future<Buffer> body = who.succeeded() ? bodies.read(request, done.future()) : Future.failedFuture(who.cause());
                    request.resume();
                    return body.compose(read -> {
                        JsonReading json = services.bodies().reading();
                        ModelRequest decoded = codec.decode(read, request.getHeader("Content-Type"), json)
                                .withVendorHeaders(request.headers());
                        services.bodies().holdParsed(json, done.future());
                        String name = RequestedName.resolve(who.result(),
                                services.settings().current().routing().modelGroupAlias(), decoded.group());
                        ModelGroup group = services.models().current().find(name)
                                .orElseThrow(() -> services.access().unknownGroup(who.result(), decoded.group(),
                                        services.models().current().names()));
                        services.access().modelRefusal(who.result(), new CalledModel(decoded.group(), group.name())).ifPresent(refusal -> {
                            throw refusal;
                        });
                        WildcardProviders.refusal(decoded.group(), group).ifPresent(unserved -> {
                            throw unserved;
                        });
                        return count(group, decoded, request.getHeader(Hops.HEADER));
                    });
                })
                .onSuccess(counted -> {
                    response.putHeader(SOURCE_HEADER, counted.source());
                    ObjectNode answer = Json.MAPPER.createObjectNode().put("input_tokens", counted.inputTokens());
                    Replies.json(response, 200, Json.buffer(answer));
                })
                .onFailure(t -> {
                    if (t instanceof ApiError error) {
                        CallerErrors.write(response, codec, error);
                    } else {
                        log.error("request.internal_error where=count_tokens", t);
                        CallerErrors.write(response, codec, Replies.internal());
                    }
                });
    }

    /** @param hops the hop marks the call arrived with, passed on so that gateways calling each other stop */
    private Future<Counted> count(ModelGroup group, ModelRequest request, String hops) {
        for (Deployment deployment : group.deployments()) {
            if (!deployment.params().endpoint().unsetVariables().isEmpty()) {
                continue; // without its credentials it cannot count either
            }
            Provider provider = services.providers().forDeployment(deployment);
            Optional<UpstreamRequest> asked = provider.countTokens(deployment, request);
            if (asked.isPresent()) {
                return ask(provider, deployment, asked.get(), hops).recover(failed -> {
                    if (failed instanceof ApiError refused) {
                        return Future.failedFuture(refused);
                    }
                    log.debug("count_tokens.deployment_failed deployment={} cause={}", deployment.id(), failed.getMessage());
                    return local(group, request);
                });
            }
        }
        return local(group, request);
    }

    /**
     * The deployment's own count. Its refusal of the request itself (400, 413) is the caller's
     * to see; any other failure leaves the count to the gateway.
     */
    private Future<Counted> ask(Provider provider, Deployment deployment, UpstreamRequest asked, String hops) {
        return provider.authorize(deployment, asked).compose(authorized -> {
            Map<String, String> headers = new LinkedHashMap<>(authorized.headers());
            headers.put(Hops.HEADER, Hops.next(hops, services.instance()));
            UpstreamExchange exchange = upstreams.open(authorized.withHeaders(headers),
                    deployment.params().attempts().timeout().orElse(DEFAULT_DEADLINE));
            return exchange.answered().compose(answered -> exchange.bodyUpTo(64 * 1024)).compose(body -> {
                int status = exchange.status();
                if (status == 400 || status == 413) {
                    ObjectNode error = provider.normaliseError(status, body);
                    new KeyMask(provider.secrets(deployment)).tree(error);
                    JsonNode message = error.path("error").path("message");
                    return Future.failedFuture(new ApiError(status, "invalid_request_error", message.asText(""), null,
                            error.path("error").path("code").asText(null)));
                }
                if (status < 200 || status >= 300) {
                    return Future.failedFuture(new IllegalStateException("answered " + status));
                }
                return Future.succeededFuture(new Counted(inputTokens(body), "deployment"));
            });
        });
    }

    private static long inputTokens(Buffer body) {
        try {
            JsonNode tokens = Json.parse(body.getBytes()).path("input_tokens");
            if (tokens.canConvertToLong() && tokens.asLong() >= 0) {
                return tokens.asLong();
            }
        } catch (IOException unreadable) {
            // Falls through to the refusal below: the gateway counts instead.
        }
        throw new IllegalStateException("answered without a count of input_tokens");
    }

    /** The gateway's count of the call in OpenAI's form, off the event loop: a long prompt takes a while. */
    private Future<Counted> local(ModelGroup group, ModelRequest request) {
        TokenEncoding encoding = TokenEncoding.forDeployments(group.deployments());
        return vertx.executeBlocking(() -> new Counted(PROMPT_TOKENS.count(request.body(), encoding), "local"), false);
    }
}
