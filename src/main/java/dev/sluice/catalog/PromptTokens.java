package dev.sluice.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/**
 * Counts the prompt tokens of a request body before it is sent, the way OpenAI counts them
 * for chat models:
 *
 * <ul>
 *   <li>chat ({@code messages}): {@value #TOKENS_PER_MESSAGE} tokens per message, plus the
 *       tokens of each of its string fields ({@code role}, {@code name} (and
 *       {@value #TOKENS_PER_NAME} more), {@code tool_call_id}, ...), of its {@code content}
 *       (a string, or the {@code text} of each part) and of the name and arguments of each
 *       tool call; then {@value #REPLY_PRIMER} for the reply's opening. An image part is
 *       {@value #IMAGE_TOKENS_LOW} tokens with {@code "detail": "low"} and
 *       {@value #IMAGE_TOKENS} otherwise: the size of a 1024 x 1024 image at high detail,
 *       as the image itself is not fetched to measure it. Audio and file parts count 0.
 *       Tool and function definitions count as the tokens of their JSON text. A top-level
 *       {@code system} (Anthropic's form) counts like a message's content;
 *   <li>completions ({@code prompt}): a string, a list of strings, or token ids (each id
 *       one token);
 *   <li>embeddings ({@code input}): as {@code prompt}.
 * </ul>
 *
 * The count is exact for OpenAI's chat models up to how OpenAI frames tools internally,
 * and an approximation for other providers' models (see {@link TokenEncoding}). Stateless
 * and thread-safe; the encodings behind it are loaded once per process.
 */
public final class PromptTokens {
    /** OpenAI's framing of one chat message ({@code <|start|>role ... <|end|>}). */
    public static final int TOKENS_PER_MESSAGE = 3;
    /** A message's {@code name} costs one token beyond its text. */
    public static final int TOKENS_PER_NAME = 1;
    /** Every reply is primed with {@code <|start|>assistant<|message|>}. */
    public static final int REPLY_PRIMER = 3;
    /** OpenAI's fixed cost of an image at low detail. */
    public static final int IMAGE_TOKENS_LOW = 85;
    /** An image at high or automatic detail, counted as if it were 1024 x 1024: 4 tiles of 170, plus 85. */
    public static final int IMAGE_TOKENS = 765;

    /** The prompt tokens of a chat, completions or embeddings body; 0 for a body with none of them. */
    public int count(ObjectNode body, TokenEncoding encoding) {
        int tokens = 0;
        JsonNode messages = body.path("messages");
        if (messages.isArray() && !messages.isEmpty()) {
            for (JsonNode message : messages) {
                tokens += message(message, encoding);
            }
            tokens += REPLY_PRIMER;
        }
        tokens += beforeMessages(body, encoding);
        tokens += promptOrInput(body.path("prompt"), encoding);
        tokens += promptOrInput(body.path("input"), encoding);
        return tokens;
    }

    /** What a chat body holds besides its messages: Anthropic's top-level system, tool and function definitions. */
    int beforeMessages(ObjectNode body, TokenEncoding encoding) {
        return content(body.path("system"), encoding)
                + definitions(body.path("tools"), encoding)
                + definitions(body.path("functions"), encoding);
    }

    /** One chat message's tokens, framing included. */
    public int message(JsonNode message, TokenEncoding encoding) {
        if (!message.isObject()) {
            return 0;
        }
        int tokens = TOKENS_PER_MESSAGE;
        for (Map.Entry<String, JsonNode> field : message.properties()) {
            JsonNode value = field.getValue();
            tokens += switch (field.getKey()) {
                case "content" -> content(value, encoding);
                case "tool_calls" -> toolCalls(value, encoding);
                case "function_call" -> call(value, encoding);
                case "name" -> value.isTextual() ? encoding.count(value.textValue()) + TOKENS_PER_NAME : 0;
                default -> value.isTextual() ? encoding.count(value.textValue()) : 0;
            };
        }
        return tokens;
    }

    /** A message's (or Anthropic's top-level system's) content: a string, or a list of parts. */
    int content(JsonNode content, TokenEncoding encoding) {
        if (content.isTextual()) {
            return encoding.count(content.textValue());
        }
        if (!content.isArray()) {
            return 0;
        }
        int tokens = 0;
        for (JsonNode part : content) {
            JsonNode text = part.path("text");
            if (text.isTextual()) {
                tokens += encoding.count(text.textValue());
            } else if (isImage(part)) {
                tokens += "low".equals(part.path("image_url").path("detail").asText()) ? IMAGE_TOKENS_LOW : IMAGE_TOKENS;
            }
        }
        return tokens;
    }

    private static boolean isImage(JsonNode part) {
        String type = part.path("type").asText();
        return type.equals("image_url") || type.equals("image");
    }

    private static int toolCalls(JsonNode calls, TokenEncoding encoding) {
        if (!calls.isArray()) {
            return 0;
        }
        int tokens = 0;
        for (JsonNode call : calls) {
            tokens += call(call.path("function"), encoding);
        }
        return tokens;
    }

    /** A function call's name and arguments. */
    private static int call(JsonNode function, TokenEncoding encoding) {
        int tokens = 0;
        if (function.path("name").isTextual()) {
            tokens += encoding.count(function.path("name").textValue());
        }
        if (function.path("arguments").isTextual()) {
            tokens += encoding.count(function.path("arguments").textValue());
        }
        return tokens;
    }

    /** Tool or function definitions, each as the tokens of its JSON text. */
    private static int definitions(JsonNode definitions, TokenEncoding encoding) {
        if (!definitions.isArray()) {
            return 0;
        }
        int tokens = 0;
        for (JsonNode definition : definitions) {
            JsonNode function = definition.has("function") ? definition.get("function") : definition;
            tokens += encoding.count(function.toString());
        }
        return tokens;
    }

    /** A completions {@code prompt} or embeddings {@code input}. */
    private static int promptOrInput(JsonNode value, TokenEncoding encoding) {
        if (value.isTextual()) {
            return encoding.count(value.textValue());
        }
        if (!value.isArray()) {
            return 0;
        }
        int tokens = 0;
        for (JsonNode item : value) {
            if (item.isTextual()) {
                tokens += encoding.count(item.textValue());
            } else if (item.isNumber()) {
                tokens++;
            } else if (item.isArray()) {
                tokens += item.size();
            }
        }
        return tokens;
    }
}
