package dev.sluice.edge;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.accounts.Authenticator;
import dev.sluice.accounts.CalledModel;
import dev.sluice.accounts.Caller;
import dev.sluice.call.RequestedName;
import dev.sluice.http.QueryParams;
import dev.sluice.http.Replies;
import dev.sluice.router.ModelGroup;
import dev.sluice.wire.ApiError;
import dev.sluice.wire.Json;
import io.vertx.core.http.HttpServerRequest;
import java.util.Optional;

/**
 * The answers about one model group: OpenAI's {@code GET /v1/models/{model}} and LiteLLM's
 * {@code GET /model_group/info}. A caller sees only the groups it may use, as in
 * {@code /v1/models}: a group it may not use is, to it, a group that does not exist.
 */
record ModelLookupHandlers(EdgeServices gateway, Authenticator authenticator) {

    /** {@code GET /v1/models/{model}}: OpenAI's model object, or 404 {@code model_not_found}. */
    void model(HttpServerRequest request, String model) {
        authenticator.withCaller(request, caller -> {
            if (visible(caller, model).isEmpty()) {
                throw new ApiError(404, "invalid_request_error", "The model `" + model + "` does not exist.", "model",
                        "model_not_found");
            }
            ObjectNode body = JsonNodeFactory.instance.objectNode()
                    .put("id", model)
                    .put("object", "model")
                    .put("created", gateway.startedEpochSecond())
                    .put("owned_by", "sluice");
            Replies.json(request.response(), 200, Json.buffer(body));
        });
    }

    /**
     * {@code GET /model_group/info}: every group the caller may use ({@link ModelGroupView}),
     * or with {@code ?model_group=} that one alone (404 when it is unknown to the caller).
     */
    void modelGroupInfo(HttpServerRequest request) {
        authenticator.withCaller(request, caller -> {
            Optional<String> only = QueryParams.of(request).raw("model_group");
            ArrayNode data = JsonNodeFactory.instance.arrayNode();
            if (only.isPresent()) {
                ModelGroup group = visible(caller, only.get()).orElseThrow(() -> new ApiError(404, "invalid_request_error",
                        "Model group `" + only.get() + "` does not exist.", "model_group", "model_not_found"));
                data.add(ModelGroupView.of(group, gateway.catalog()));
            } else {
                for (String name : gateway.models().current().names()) {
                    visible(caller, name).ifPresent(group -> data.add(ModelGroupView.of(group, gateway.catalog())));
                }
            }
            ObjectNode body = JsonNodeFactory.instance.objectNode();
            body.set("data", data);
            Replies.json(request.response(), 200, Json.buffer(body));
        });
    }

    /** The group serving {@code name} to {@code caller}, found as its call's model is (aliases, group, wildcard), when it may call it. */
    private Optional<ModelGroup> visible(Caller caller, String name) {
        String resolved = RequestedName.resolve(caller, gateway.routerSettings().current().routing().modelGroupAlias(), name);
        return gateway.models().current().find(resolved)
                .filter(group -> gateway.access().mayUse(caller, new CalledModel(name, group.name())));
    }
}
