package dev.sluice.provider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Completes a reply's {@code usage} block. Some OpenAI-compatible servers leave out
 * {@code total_tokens} or one of the counts; accounting and callers expect all three.
 */
final class Usage {
    private Usage() {}

    /** Fills the missing counts in place; returns whether anything changed. */
    static boolean complete(ObjectNode reply) {
        JsonNode node = reply.get("usage");
        if (!(node instanceof ObjectNode usage)) {
            return false;
        }
        JsonNode prompt = usage.get("prompt_tokens");
        JsonNode completion = usage.get("completion_tokens");
        JsonNode total = usage.get("total_tokens");
        boolean hasPrompt = prompt != null && prompt.canConvertToLong();
        boolean hasCompletion = completion != null && completion.canConvertToLong();
        boolean hasTotal = total != null && total.canConvertToLong();
        if (hasTotal && (hasPrompt || !hasCompletion)) {
            return false;
        }
        if (hasPrompt && !hasTotal) {
            usage.put("total_tokens", prompt.asLong() + (hasCompletion ? completion.asLong() : 0));
            return true;
        }
        if (!hasPrompt && hasTotal && hasCompletion) {
            usage.put("prompt_tokens", Math.max(0, total.asLong() - completion.asLong()));
            return true;
        }
        return false;
    }
}
