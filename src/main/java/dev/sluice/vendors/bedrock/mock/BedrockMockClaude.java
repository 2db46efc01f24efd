package dev.sluice.vendors.bedrock.mock;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.vendors.anthropic.mock.AnthropicMockCall;
import dev.sluice.vendors.anthropic.mock.AnthropicMockReplies;
import dev.sluice.vendors.anthropic.mock.AnthropicMockStream;
import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

/**
 * The mock's answers to InvokeModel for a Claude model: the Anthropic mock's answer
 * ({@link AnthropicMockReplies}: the echo, a tool call when tools are given, a refusal in mode
 * {@code policy}), as Anthropic's message JSON for {@code invoke}, or for
 * {@code invoke-with-response-stream} as event-stream {@code chunk} frames, each carrying one
 * Messages API stream event as {@code {"bytes": "<base64>"}}; {@code message_stop} carries
 * Bedrock's {@code amazon-bedrock-invocationMetrics}. A body Bedrock would refuse (with
 * {@code model} or {@code stream}, or without {@code anthropic_version} or {@code max_tokens})
 * is refused with Bedrock's words.
 */
final class BedrockMockClaude {
    private final AnthropicMockReplies replies;

    BedrockMockClaude(String name) {
        this.replies = new AnthropicMockReplies(name);
    }

    /** Why Bedrock refuses {@code body} as a Claude model's InvokeModel body; null when it takes it. */
    static String refusal(JsonNode body) {
        for (String extraneous : List.of("model", "stream")) {
            if (body.has(extraneous)) {
                return "Malformed input request: #: extraneous key [" + extraneous + "] is not permitted, please reformat your"
                        + " input and try again.";
            }
        }
        for (String required : List.of("anthropic_version", "max_tokens", "messages")) {
            if (!body.hasNonNull(required)) {
                return "Malformed input request: #: required key [" + required + "] not found, please reformat your input"
                        + " and try again.";
            }
        }
        return null;
    }

    /** The answer to {@code body}, naming the model of the path, as Bedrock's answers do. */
    AnthropicMockReplies.Reply reply(BedrockMockCall call, JsonNode body, boolean refuse) {
        ObjectNode named = ((ObjectNode) body).deepCopy().put("model", call.modelId());
        return replies.reply(AnthropicMockCall.of(named), refuse);
    }

    static Buffer message(AnthropicMockReplies.Reply reply) {
        return Buffer.buffer(AnthropicMockReplies.message(reply).toString());
    }

    static List<Buffer> chunks(AnthropicMockReplies.Reply reply) {
        List<ObjectNode> events = AnthropicMockStream.nodes(reply);
        ObjectNode usage = reply.usage();
        events.getLast().putObject("amazon-bedrock-invocationMetrics")
                .put("inputTokenCount", usage.path("input_tokens").asInt()).put("outputTokenCount", reply.outputTokens())
                .put("invocationLatency", 1).put("firstByteLatency", 1);
        return events.stream().map(event -> BedrockMockReplies.frame("chunk", json -> {
            json.writeStartObject();
            json.writeStringField("bytes", Base64.getEncoder().encodeToString(event.toString().getBytes(StandardCharsets.UTF_8)));
            json.writeEndObject();
        })).toList();
    }
}
