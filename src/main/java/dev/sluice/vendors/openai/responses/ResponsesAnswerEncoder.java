package dev.sluice.vendors.openai.responses;

import static dev.sluice.model.WireFields.NODES;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.model.ChatAnswer;
import dev.sluice.model.ContentPart;
import dev.sluice.model.ContentPart.Reasoning;
import dev.sluice.model.ContentPart.Text;
import dev.sluice.model.ContentPart.ToolCall;
import dev.sluice.model.WireFields;

/**
 * A {@link ChatAnswer} as a {@code response} object. The answer's parts become output items in
 * their order: each reasoning part a {@code reasoning} item, each run of text one
 * {@code message} with one {@code output_text}, each tool call a {@code function_call}.
 * Item ids come from {@link ResponseMeta#itemId}, as the stream encoder names them.
 */
final class ResponsesAnswerEncoder {
    private ResponsesAnswerEncoder() {}

    static ObjectNode encode(ChatAnswer answer, ResponsesRequest request, ResponseMeta meta) {
        ArrayNode output = NODES.arrayNode();
        StringBuilder text = null;
        for (int i = 0; i < answer.content().size(); i++) {
            ContentPart part = answer.content().get(i);
            if (!(part instanceof Text) && text != null) {
                output.add(message(meta, output.size(), text));
                text = null;
            }
            switch (part) {
                case Text written -> text = (text == null ? new StringBuilder() : text).append(written.text());
                case Reasoning reasoning -> output.add(ResponsesReasoning.encode(reasoning, meta.itemId("rs", output.size())));
                case ToolCall call -> output.add(ResponsesOutput.functionCall(meta.itemId("fc", output.size()), ResponsesOutput.COMPLETED,
                        call.id(), call.name(), call.arguments()));
                default -> throw new IllegalArgumentException("content[" + i + "]: " + part.getClass().getSimpleName()
                        + " (expected: text, reasoning or tool calls in a response)");
            }
        }
        if (text != null) {
            output.add(message(meta, output.size(), text));
        }
        ObjectNode response = ResponseObject.of(request, meta, ResponsesOutput.COMPLETED, output);
        ResponseObject.finish(response, answer.finishReason(), answer.usage());
        return response;
    }

    private static ObjectNode message(ResponseMeta meta, int outputIndex, StringBuilder text) {
        ArrayNode content = NODES.arrayNode().add(ResponsesOutput.outputText(text.toString()));
        return ResponsesOutput.message(meta.itemId("msg", outputIndex), ResponsesOutput.COMPLETED, content);
    }
}
