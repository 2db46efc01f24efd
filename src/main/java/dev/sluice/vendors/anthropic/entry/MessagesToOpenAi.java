package dev.sluice.vendors.anthropic.entry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.model.ChatRequest;
import dev.sluice.model.GatewayFields;
import dev.sluice.vendors.anthropic.wire.AnthropicMessages;
import dev.sluice.vendors.openai.wire.OpenAiChat;

/**
 * A Messages API body in OpenAI's chat form: what the gateway's rules read, and what a
 * deployment of another dialect is sent. The conversation, tools, tool choice, sampling and
 * stop sequences cross the internal model; the Messages fields that have an OpenAI
 * counterpart the model does not carry are mapped here: {@code metadata.user_id} to
 * {@code user}, {@code thinking}'s budget to {@code reasoning_effort},
 * {@code disable_parallel_tool_use} to {@code parallel_tool_calls: false}. {@code top_k} has
 * none and is left out. A stream asks for its usage, which Anthropic's last events carry. The
 * gateway's own fields (fallbacks, retries, guardrails) are kept for its rules to read.
 */
final class MessagesToOpenAi {
    /** The thinking budgets at or under which OpenAI's low and medium efforts are asked; above, high. */
    static final int LOW_EFFORT_BUDGET = 1024;
    static final int MEDIUM_EFFORT_BUDGET = 4096;

    private MessagesToOpenAi() {}

    /** @throws IllegalArgumentException naming the JSON path of a malformed value */
    static ObjectNode body(ObjectNode messages) {
        ChatRequest chat = AnthropicMessages.decodeRequest(messages);
        ObjectNode body = OpenAiChat.encodeRequest(chat);
        JsonNode user = messages.path("metadata").path("user_id");
        if (user.isTextual()) {
            body.put("user", user.textValue());
        }
        JsonNode thinking = messages.get("thinking");
        if (thinking != null && "enabled".equals(thinking.path("type").asText())) {
            int budget = thinking.path("budget_tokens").asInt(0);
            body.put("reasoning_effort", budget <= LOW_EFFORT_BUDGET ? "low" : budget <= MEDIUM_EFFORT_BUDGET ? "medium" : "high");
        }
        if (messages.path("tool_choice").path("disable_parallel_tool_use").asBoolean(false) && body.has("tools")) {
            body.put("parallel_tool_calls", false);
        }
        if (chat.stream()) {
            body.putObject("stream_options").put("include_usage", true);
        }
        GatewayFields.copy(messages, body);
        return body;
    }
}
