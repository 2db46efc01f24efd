package dev.sluice.vendors.anthropic.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.model.FinishReason;
import dev.sluice.model.StreamEvent;
import dev.sluice.model.StreamEvent.Finished;
import dev.sluice.model.StreamEvent.ReasoningDelta;
import dev.sluice.model.StreamEvent.Started;
import dev.sluice.model.StreamEvent.TextDelta;
import dev.sluice.model.StreamEvent.ToolCallDelta;
import dev.sluice.model.StreamEvent.UsageReported;
import dev.sluice.model.Usage;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads one Messages API stream's events into {@link StreamEvent}s: {@code message_start}
 * starts it, each content block's {@code content_block_start} and
 * {@code content_block_delta}s ({@code text_delta}, {@code input_json_delta},
 * {@code thinking_delta}, {@code signature_delta}) become deltas, {@code message_delta}
 * says why it stopped and the usage so far, and {@code ping}, {@code content_block_stop} and
 * {@code message_stop} mean nothing to the caller. An {@code error} event is thrown as
 * {@link AnthropicStreamError}; an event that cannot be read as {@link IllegalArgumentException}.
 *
 * <p>Tool calls are numbered from 0 in the order their blocks start, whatever the blocks'
 * own indexes (text and thinking blocks take indexes too). Under a structured output asked
 * as the forced {@code json_tool_call}, that block's JSON arrives as text. One per stream.
 */
public final class AnthropicStreamDecoder {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final boolean jsonMode;
    /** Content block index to its tool call's number; absent for other blocks. */
    private final Map<Integer, Integer> toolCalls = new HashMap<>();
    private Integer jsonBlock;
    private JsonNode startUsage;

    /** @param jsonMode whether the request asked a structured output as the forced {@code json_tool_call} */
    public AnthropicStreamDecoder(boolean jsonMode) {
        this.jsonMode = jsonMode;
    }

    /**
     * @param eventName the SSE {@code event:} name, or null; the data's own {@code type} decides
     * @param payload   the SSE {@code data:}, a JSON object
     */
    public List<StreamEvent> decode(String eventName, byte[] payload) {
        JsonNode event = parse(payload);
        String type = event.path("type").asText(eventName == null ? "" : eventName);
        return switch (type) {
            case "message_start" -> started(event.path("message"));
            case "content_block_start" -> blockStarted(event.path("index").asInt(-1), event.path("content_block"));
            case "content_block_delta" -> delta(event.path("index").asInt(-1), event.path("delta"));
            case "message_delta" -> messageDelta(event);
            case "error" -> throw new AnthropicStreamError(event.path("error").path("type").asText("api_error"),
                    event.path("error").path("message").asText(""), payload);
            default -> List.of(); // ping, content_block_stop, message_stop, and events newer than this reader
        };
    }

    private List<StreamEvent> started(JsonNode message) {
        startUsage = message.path("usage");
        return List.of(new Started(message.path("id").asText(""), message.path("model").asText("")));
    }

    private List<StreamEvent> blockStarted(int index, JsonNode block) {
        return switch (block.path("type").asText()) {
            case "text" -> block.path("text").asText("").isEmpty() ? List.of() : List.of(new TextDelta(block.path("text").asText()));
            case "thinking" -> block.path("thinking").asText("").isEmpty() ? List.of()
                    : List.of(new ReasoningDelta(block.path("thinking").asText(), null, false));
            case "redacted_thinking" -> List.of(new ReasoningDelta(block.path("data").asText(""), null, true));
            case "tool_use" -> {
                if (jsonMode && AnthropicOpenAiParams.JSON_TOOL.equals(block.path("name").asText())) {
                    jsonBlock = index;
                    yield List.of();
                }
                int number = toolCalls.size();
                toolCalls.put(index, number);
                yield List.of(new ToolCallDelta(number, block.path("id").asText(""), block.path("name").asText(""), ""));
            }
            default -> List.of();
        };
    }

    private List<StreamEvent> delta(int index, JsonNode delta) {
        return switch (delta.path("type").asText()) {
            case "text_delta" -> List.of(new TextDelta(delta.path("text").asText("")));
            case "thinking_delta" -> List.of(new ReasoningDelta(delta.path("thinking").asText(""), null, false));
            case "signature_delta" -> List.of(new ReasoningDelta("", delta.path("signature").asText(""), false));
            case "input_json_delta" -> {
                String json = delta.path("partial_json").asText("");
                if (jsonBlock != null && jsonBlock == index) {
                    yield json.isEmpty() ? List.of() : List.of(new TextDelta(json));
                }
                Integer number = toolCalls.get(index);
                // A server tool's input (server_tool_use: web search run by Anthropic) is no call of the caller's.
                yield number == null ? List.of() : List.of(new ToolCallDelta(number, null, null, json));
            }
            default -> List.of(); // citations_delta and newer: nothing OpenAI's chunk carries
        };
    }

    private List<StreamEvent> messageDelta(JsonNode event) {
        JsonNode reason = event.path("delta").path("stop_reason");
        FinishReason finish = AnthropicUsage.finish(reason.isTextual() ? reason.textValue() : null);
        if (jsonBlock != null && toolCalls.isEmpty() && finish.kind() == FinishReason.Kind.TOOL_CALLS) {
            finish = FinishReason.STOP;
        }
        return List.of(new Finished(finish), new UsageReported(usage(event.path("usage"))));
    }

    /** {@code message_delta}'s usage is cumulative; counts it leaves out come from {@code message_start}. */
    private Usage usage(JsonNode delta) {
        long input = pick(delta, "input_tokens");
        long cacheRead = pick(delta, "cache_read_input_tokens");
        long cacheCreation = pick(delta, "cache_creation_input_tokens");
        long output = AnthropicUsage.count(delta, "output_tokens");
        return new Usage(input + cacheRead + cacheCreation, output, cacheRead, cacheCreation, 0);
    }

    private long pick(JsonNode delta, String field) {
        JsonNode value = delta.get(field);
        return value != null && value.isIntegralNumber() ? AnthropicUsage.count(delta, field) : AnthropicUsage.count(startUsage, field);
    }

    private static JsonNode parse(byte[] payload) {
        try {
            JsonNode event = MAPPER.readTree(payload);
            if (event != null && event.isObject()) {
                return event;
            }
        } catch (IOException malformed) {
            // refused below
        }
        String text = new String(payload, java.nio.charset.StandardCharsets.UTF_8);
        throw new IllegalArgumentException("stream event: " + AnthropicAnswers.shorten(text) + " (expected: a JSON object)");
    }
}
