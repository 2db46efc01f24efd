package dev.sluice.vendors.mock;

/**
 * What the OpenAI mock answers to one chat or text completion: a text, or (chat only) one
 * call of a function tool. {@link MockReplies} writes it whole, {@link MockStreamEvents} as
 * chunks; both read the finish reason and the completion's size from here, so the two agree.
 *
 * @param id       the answer's id, e.g. {@code chatcmpl-mock-7}
 * @param text     the reply text; null when the answer is a tool call
 * @param toolCall the tool call; null when the answer is a text
 */
public record MockAnswer(String id, String text, ToolCall toolCall) {

    /**
     * One call of a function tool.
     *
     * @param id        e.g. {@code call_mock_7}
     * @param name      the tool's function name
     * @param arguments a JSON object as a string, as OpenAI sends {@code function.arguments}
     */
    public record ToolCall(String id, String name, String arguments) {}

    public static MockAnswer text(String id, String text) {
        return new MockAnswer(id, text, null);
    }

    public static MockAnswer toolCall(String id, ToolCall call) {
        return new MockAnswer(id, null, call);
    }

    public boolean callsATool() {
        return toolCall != null;
    }

    /** {@code tool_calls} when the answer calls a tool, else {@code stop}. */
    String finishReason() {
        return callsATool() ? "tool_calls" : "stop";
    }

    /** What the completion tokens are counted from: the text, or the call's arguments (as the Anthropic mock counts a tool call's input). */
    public int completionChars() {
        return callsATool() ? toolCall.arguments().length() : text.length();
    }
}
