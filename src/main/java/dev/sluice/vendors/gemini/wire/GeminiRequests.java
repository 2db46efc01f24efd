package dev.sluice.vendors.gemini.wire;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.model.ChatRequest;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes a {@link ChatRequest} as Gemini's {@code GenerateContentRequest}: the conversation as
 * {@code contents} and {@code systemInstruction}, the tools as {@code functionDeclarations}
 * with {@code toolConfig}, everything else as {@code generationConfig}.
 */
final class GeminiRequests {
    static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private GeminiRequests() {}

    static GeminiRequest encode(ChatRequest request) {
        ObjectNode body = NODES.objectNode();
        GeminiContents.Written conversation = GeminiContents.encode(request.messages());
        body.set("contents", conversation.contents());
        conversation.systemInstruction().ifPresent(system -> body.set("systemInstruction", system));
        GeminiTools.encode(request.tools(), request.toolChoice(), body);
        List<String> unsupported = new ArrayList<>();
        ObjectNode generationConfig = GeminiGenerationConfig.encode(request.sampling(), request.extra(), unsupported);
        if (!generationConfig.isEmpty()) {
            body.set("generationConfig", generationConfig);
        }
        return new GeminiRequest(body, unsupported);
    }
}
