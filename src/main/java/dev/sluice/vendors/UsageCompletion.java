package dev.sluice.vendors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Completes a reply's {@code usage} block. Some OpenAI-compatible servers leave out
 * {@code total_tokens} or one of the counts; accounting and callers expect all three.
 */
final class UsageCompletion {
    private UsageCompletion() {}

    /** Fills the missing counts in place; returns whether anything changed. */
    static boolean complete(ObjectNode reply) {
        JsonNode node = reply.get("usage");
        if (!incomplete(node)) {
            return false;
        }
        ObjectNode usage = (ObjectNode) node;
        JsonNode prompt = usage.get("prompt_tokens");
        JsonNode completion = usage.get("completion_tokens");
        if (counted(prompt)) {
            usage.put("total_tokens", prompt.asLong() + (counted(completion) ? completion.asLong() : 0));
        } else {
            usage.put("prompt_tokens", Math.max(0, usage.get("total_tokens").asLong() - completion.asLong()));
        }
        return true;
    }

    /**
     * Whether {@link #complete} would fill in a count of this {@code usage}: the prompt's
     * without a total, or the total and the completion's without the prompt's.
     */
    static boolean incomplete(JsonNode node) {
        if (!(node instanceof ObjectNode usage)) {
            return false;
        }
        boolean hasPrompt = counted(usage.get("prompt_tokens"));
        boolean hasCompletion = counted(usage.get("completion_tokens"));
        boolean hasTotal = counted(usage.get("total_tokens"));
        return (hasPrompt && !hasTotal) || (!hasPrompt && hasTotal && hasCompletion);
    }

    private static boolean counted(JsonNode count) {
        return count != null && count.canConvertToLong();
    }
}
