package dev.sluice.ops.callbacks;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.model.AnswerText;
import dev.sluice.ops.logging.SecretMask;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;

/**
 * A record as OpenTelemetry's GenAI semantic conventions describe a model call, for the
 * call's span: the provider, the operation, the models asked for and answering, the
 * sampling parameters the caller set, the tokens and the finish reasons. Prompts and answers
 * are added only when message logging is on, under the names LiteLLM's OpenTelemetry logger
 * uses ({@code gen_ai.prompt.<i>.role}/{@code .content}, {@code gen_ai.completion.0.*}), masked.
 */
final class GenAiAttributes {
    static final AttributeKey<String> SYSTEM = AttributeKey.stringKey("gen_ai.system");
    static final AttributeKey<String> OPERATION = AttributeKey.stringKey("gen_ai.operation.name");
    static final AttributeKey<String> REQUEST_MODEL = AttributeKey.stringKey("gen_ai.request.model");
    static final AttributeKey<String> RESPONSE_MODEL = AttributeKey.stringKey("gen_ai.response.model");
    static final AttributeKey<Long> INPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.input_tokens");
    static final AttributeKey<Long> OUTPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.output_tokens");
    static final AttributeKey<java.util.List<String>> FINISH_REASONS = AttributeKey.stringArrayKey("gen_ai.response.finish_reasons");
    static final AttributeKey<Double> TEMPERATURE = AttributeKey.doubleKey("gen_ai.request.temperature");
    static final AttributeKey<Long> MAX_TOKENS = AttributeKey.longKey("gen_ai.request.max_tokens");
    static final AttributeKey<Double> TOP_P = AttributeKey.doubleKey("gen_ai.request.top_p");
    static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");

    private GenAiAttributes() {}

    /** @param settled whether the call's accounting has ended: only then are its tokens known */
    static Attributes of(CallRecord record, boolean messageLogging, boolean settled) {
        AttributesBuilder attributes = Attributes.builder();
        CallRecord.Request request = record.request();
        if (record.served() != null) {
            attributes.put(SYSTEM, record.served().provider());
        }
        attributes.put(OPERATION, request.operation());
        attributes.put(REQUEST_MODEL, request.group());
        JsonNode parameters = request.parameters();
        if (parameters.path("temperature").isNumber()) {
            attributes.put(TEMPERATURE, parameters.get("temperature").doubleValue());
        }
        JsonNode maxTokens = parameters.has("max_completion_tokens") ? parameters.get("max_completion_tokens") : parameters.path("max_tokens");
        if (maxTokens.canConvertToLong()) {
            attributes.put(MAX_TOKENS, maxTokens.longValue());
        }
        if (parameters.path("top_p").isNumber()) {
            attributes.put(TOP_P, parameters.get("top_p").doubleValue());
        }
        CallRecord.Result result = record.result();
        if (result.error() != null) {
            attributes.put(ERROR_TYPE, result.error().type());
        }
        if (settled) {
            if (result.responseModel() != null) {
                attributes.put(RESPONSE_MODEL, result.responseModel());
            }
            attributes.put(INPUT_TOKENS, result.promptTokens());
            attributes.put(OUTPUT_TOKENS, result.completionTokens());
            if (!result.finishReasons().isEmpty()) {
                attributes.put(FINISH_REASONS, result.finishReasons());
            }
        }
        if (messageLogging) {
            messages(request.messages(), attributes);
            answer(result.response(), attributes);
        }
        return attributes.build();
    }

    private static void messages(JsonNode messages, AttributesBuilder attributes) {
        if (messages == null || !messages.isArray()) {
            if (messages != null && messages.isTextual()) {
                attributes.put("gen_ai.prompt.0.role", "user");
                attributes.put("gen_ai.prompt.0.content", SecretMask.mask(messages.textValue()));
            }
            return;
        }
        for (int i = 0; i < messages.size(); i++) {
            JsonNode message = messages.get(i);
            JsonNode content = message.path("content");
            attributes.put("gen_ai.prompt." + i + ".role", message.path("role").asText("user"));
            attributes.put("gen_ai.prompt." + i + ".content", SecretMask.mask(content.isTextual() ? content.textValue() : content.toString()));
        }
    }

    private static void answer(JsonNode response, AttributesBuilder attributes) {
        if (response == null || response.isNull()) {
            return;
        }
        String text = response.has("choices") ? AnswerText.ofBody(response) : response.toString();
        attributes.put("gen_ai.completion.0.role", "assistant");
        attributes.put("gen_ai.completion.0.content", SecretMask.mask(text));
    }
}
