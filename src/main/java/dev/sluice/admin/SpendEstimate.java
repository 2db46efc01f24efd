package dev.sluice.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.accounts.spend.CallCost;
import dev.sluice.catalog.PromptTokens;
import dev.sluice.catalog.TokenEncoding;
import dev.sluice.config.Deployment;
import dev.sluice.router.ModelGroup;
import dev.sluice.router.ModelRegistry;
import dev.sluice.wire.ApiError;
import dev.sluice.wire.Json;
import dev.sluice.wire.JsonFields;
import java.util.Optional;

/**
 * {@code POST /spend/calculate}: what a call would cost, or what an answer cost, priced as
 * the gateway charges a call ({@link CallCost}): {@code {"cost": dollars}}.
 *
 * <ul>
 *   <li>{@code {"model", "messages"}}: the messages' prompt tokens, counted as before a call,
 *       at the model's input price, with no completion tokens (as LiteLLM prices it);
 *   <li>{@code {"completion_response"}}: the answer's {@code usage} at its {@code model}'s
 *       prices.
 * </ul>
 *
 * A model is a model group the gateway serves (its first deployment's prices, as the config
 * orders them), a deployment's id, or a deployment's {@code litellm_params.model} with or
 * without its provider prefix. A model the gateway does not serve is refused: its price
 * would be a guess. A served model with no known price costs 0, as in LiteLLM.
 */
final class SpendEstimate {
    private static final PromptTokens PROMPT_TOKENS = new PromptTokens();

    private SpendEstimate() {}

    static ObjectNode of(ObjectNode body, ModelRegistry models, CallCost cost) {
        double dollars;
        if (body.hasNonNull("model")) {
            String model = JsonFields.name(body.get("model"), "model");
            JsonNode messages = body.path("messages");
            if (messages.isMissingNode() || messages.isNull()) {
                throw ApiError.invalidRequest("Bad Request - messages must be provided if 'model' is provided.", "messages",
                        "missing_required_parameter");
            }
            if (!messages.isArray() || messages.isEmpty()) {
                throw JsonFields.invalid("messages", messages, "a non-empty list of chat messages");
            }
            Deployment deployment = deployment(models, model, "model");
            ObjectNode prompt = Json.MAPPER.createObjectNode();
            prompt.set("messages", messages);
            int tokens = PROMPT_TOKENS.count(prompt, TokenEncoding.forModel(deployment.params().providerModel()));
            dollars = cost.of(deployment, tokens, 0).dollars();
        } else if (body.hasNonNull("completion_response")) {
            JsonNode response = body.get("completion_response");
            if (!response.isObject()) {
                throw JsonFields.invalidType("completion_response", response, "a chat completion object");
            }
            JsonNode model = response.path("model");
            if (!model.isTextual() || model.textValue().isBlank()) {
                throw ApiError.invalidRequest("Missing required parameter: 'completion_response.model' (the model that "
                        + "answered, to price its usage).", "completion_response.model", "missing_required_parameter");
            }
            JsonNode usage = response.path("usage");
            if (!usage.isObject()) {
                throw ApiError.invalidRequest("Missing required parameter: 'completion_response.usage' (its prompt_tokens "
                        + "and completion_tokens are what is priced).", "completion_response.usage", "missing_required_parameter");
            }
            long prompt = tokens(usage, "prompt_tokens");
            long completion = tokens(usage, "completion_tokens");
            dollars = cost.of(deployment(models, model.textValue(), "completion_response.model"), prompt, completion).dollars();
        } else {
            throw ApiError.invalidRequest("Bad Request - Either 'model' or 'completion_response' must be provided.", "model",
                    "missing_required_parameter");
        }
        return Json.MAPPER.createObjectNode().put("cost", dollars);
    }

    private static long tokens(JsonNode usage, String field) {
        JsonNode value = usage.path(field);
        return value.isMissingNode() || value.isNull() ? 0 : JsonFields.count(value, "completion_response.usage." + field);
    }

    /** The deployment whose prices a model name stands for. */
    static Deployment deployment(ModelRegistry models, String model, String param) {
        Optional<Deployment> found = models.current().find(model).map(ModelGroup::deployments)
                .flatMap(deployments -> deployments.stream().findFirst());
        if (found.isEmpty()) {
            found = models.deployments().stream().filter(d -> d.id().equals(model) || d.params().model().equals(model)
                    || d.params().providerModel().equals(model)).findFirst();
        }
        return found.orElseThrow(() -> ApiError.invalidRequest("Invalid '" + param + "': \"" + (model.length() <= 80 ? model
                : model.substring(0, 80) + "...") + "\" is not a model this gateway serves (expected: a model group, a "
                + "deployment's id, or a deployment's litellm_params.model).", param, "model_not_found"));
    }
}
