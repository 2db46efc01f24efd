package dev.sluice.vendors.openai.wire;

import static dev.sluice.model.WireFields.absent;
import static dev.sluice.model.WireFields.array;
import static dev.sluice.model.WireFields.object;
import static dev.sluice.model.WireFields.optionalCount;
import static dev.sluice.model.WireFields.optionalText;
import static dev.sluice.model.WireFields.path;
import static dev.sluice.model.WireFields.refused;
import static dev.sluice.model.WireFields.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.model.ContentPart.Reasoning;
import dev.sluice.model.FinishReason;
import dev.sluice.model.StreamEvent;
import dev.sluice.model.WireFields;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads one stream's chat-completion chunks ({@code object: chat.completion.chunk}) into
 * {@link StreamEvent}s, in the order a chunk holds them: {@code Started} (first chunk only),
 * reasoning, text, tool-call fragments, {@code Finished}, usage. Empty text and reasoning
 * fragments (OpenAI opens with {@code content: ""}) give no event. One decoder per stream:
 * it remembers whether the stream has started.
 */
public final class OpenAiChatChunkDecoder {
    private boolean started;

    /** The events of one chunk's JSON (the {@code data:} of one server-sent event, {@code [DONE]} excluded). */
    public List<StreamEvent> decode(JsonNode node) {
        ObjectNode chunk = object(node, "$");
        List<StreamEvent> events = new ArrayList<>();
        if (!started) {
            events.add(new StreamEvent.Started(text(chunk, "id", ""), text(chunk, "model", "")));
            started = true;
        }
        JsonNode choices = chunk.get("choices");
        if (!absent(choices)) {
            ArrayNode array = array(choices, "choices");
            if (array.size() > 1) {
                throw refused("choices", array, "at most one choice");
            }
            if (array.size() == 1) {
                choice(object(array.get(0), "choices[0]"), events);
            }
        }
        if (!absent(chunk.get("usage"))) {
            events.add(new StreamEvent.UsageReported(OpenAiUsage.decode(chunk.get("usage"), "usage")));
        }
        return events;
    }

    private static void choice(ObjectNode choice, List<StreamEvent> events) {
        JsonNode deltaNode = choice.get("delta");
        if (!absent(deltaNode)) {
            ObjectNode delta = object(deltaNode, "choices[0].delta");
            for (Reasoning reasoning : OpenAiContent.decodeReasoning(delta, "choices[0].delta")) {
                if (!reasoning.text().isEmpty() || reasoning.signature() != null) {
                    events.add(new StreamEvent.ReasoningDelta(reasoning.text(), reasoning.signature(), reasoning.redacted()));
                }
            }
            String content = optionalText(delta, "content", "choices[0].delta");
            if (content != null && !content.isEmpty()) {
                events.add(new StreamEvent.TextDelta(content));
            }
            toolCalls(delta.get("tool_calls"), events);
        }
        FinishReason finish = OpenAiUsage.decodeFinish(choice, "choices[0]");
        if (finish != null) {
            events.add(new StreamEvent.Finished(finish));
        }
    }

    private static void toolCalls(JsonNode calls, List<StreamEvent> events) {
        if (absent(calls)) {
            return;
        }
        String path = "choices[0].delta.tool_calls";
        ArrayNode array = array(calls, path);
        for (int i = 0; i < array.size(); i++) {
            String callPath = path(path, i);
            ObjectNode call = object(array.get(i), callPath);
            Integer index = optionalCount(call, "index", callPath);
            if (index == null) {
                throw refused(path(callPath, "index"), call.get("index"), "a whole number >= 0");
            }
            JsonNode functionNode = call.get("function");
            ObjectNode function = absent(functionNode) ? WireFields.NODES.objectNode() : object(functionNode, path(callPath, "function"));
            String arguments = optionalText(function, "arguments", path(callPath, "function"));
            events.add(new StreamEvent.ToolCallDelta(index, optionalText(call, "id", callPath),
                    optionalText(function, "name", path(callPath, "function")), arguments == null ? "" : arguments));
        }
    }
}
