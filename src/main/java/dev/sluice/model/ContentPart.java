package dev.sluice.model;

import java.util.List;

/**
 * One piece of a message's content. Every vendor's message is a list of such parts, whatever
 * its wire format calls them: OpenAI's content parts, {@code tool_calls} and {@code role: tool}
 * messages, Anthropic's content blocks, Gemini's parts.
 */
public sealed interface ContentPart {

    /**
     * A part that can carry a prompt-cache breakpoint ({@link CacheControl}): text, an image,
     * a tool result. Tool calls and reasoning carry none.
     */
    sealed interface Cacheable extends ContentPart permits Text, Image, ToolResult {
        /** The breakpoint after this part, or null when there is none. */
        CacheControl cache();

        /** This part with {@code cache} as its breakpoint (null for none). */
        Cacheable withCache(CacheControl cache);
    }

    /**
     * Plain text.
     *
     * @param cache the prompt-cache breakpoint after it, or null
     */
    record Text(String text, CacheControl cache) implements Cacheable {
        public Text {
            Checks.present(text, "text");
        }

        /** Text with no cache breakpoint. */
        public Text(String text) {
            this(text, null);
        }

        @Override
        public Text withCache(CacheControl cache) {
            return new Text(text, cache);
        }
    }

    /**
     * An image, either at a URL or inline as base64 data with its media type.
     *
     * @param url       where the image is, or null when it is inline
     * @param mediaType the inline data's type, e.g. {@code image/png}; null with a URL
     * @param data      the inline image in base64, or null with a URL
     * @param detail    how closely the model should look ({@code low}, {@code high}, {@code auto}), or null for the vendor's default
     * @param cache     the prompt-cache breakpoint after it, or null
     */
    record Image(String url, String mediaType, String data, String detail, CacheControl cache) implements Cacheable {
        public Image {
            if (url == null) {
                Checks.notBlank(mediaType, "mediaType");
                Checks.present(data, "data");
            } else if (mediaType != null || data != null) {
                throw new IllegalArgumentException("url: " + url + " (expected: either a url or inline data, not both)");
            }
        }

        public static Image atUrl(String url, String detail) {
            return new Image(Checks.present(url, "url"), null, null, detail, null);
        }

        public static Image inline(String mediaType, String data, String detail) {
            return new Image(null, mediaType, data, detail, null);
        }

        @Override
        public Image withCache(CacheControl cache) {
            return new Image(url, mediaType, data, detail, cache);
        }

        public boolean inline() {
            return url == null;
        }
    }

    /**
     * The model asking for a tool to be run.
     *
     * @param id        the vendor's id for this call, which the {@link ToolResult} answering it repeats
     * @param name      the tool's name, as in {@link Tool#name()}
     * @param arguments the arguments as JSON text, exactly as the model wrote them (it may be malformed)
     */
    record ToolCall(String id, String name, String arguments) implements ContentPart {
        public ToolCall {
            Checks.present(id, "id");
            Checks.notBlank(name, "name");
            Checks.present(arguments, "arguments");
        }
    }

    /**
     * The outcome of running a tool, sent back by the caller.
     *
     * @param toolCallId the {@link ToolCall#id()} this answers
     * @param content    what the tool returned: text and images only
     * @param isError    whether the tool failed (Anthropic's {@code is_error}; OpenAI has no word for it)
     * @param cache      the prompt-cache breakpoint after the whole result, or null; a text or image inside
     *                   may carry its own
     */
    record ToolResult(String toolCallId, List<ContentPart> content, boolean isError, CacheControl cache) implements Cacheable {
        public ToolResult {
            Checks.present(toolCallId, "toolCallId");
            content = Checks.listOf(content, "content");
            for (int i = 0; i < content.size(); i++) {
                if (!(content.get(i) instanceof Text) && !(content.get(i) instanceof Image)) {
                    throw new IllegalArgumentException("content[" + i + "]: " + content.get(i).getClass().getSimpleName()
                            + " (expected: text or image in a tool result)");
                }
            }
        }

        /** A tool result with no cache breakpoint of its own. */
        public ToolResult(String toolCallId, List<ContentPart> content, boolean isError) {
            this(toolCallId, content, isError, null);
        }

        @Override
        public ToolResult withCache(CacheControl cache) {
            return new ToolResult(toolCallId, content, isError, cache);
        }
    }

    /**
     * The model's reasoning before it answered. Anthropic signs its thinking blocks, and a
     * block sent back in a later turn must carry its signature unchanged; a redacted block
     * holds the vendor's encrypted data in place of text.
     *
     * @param text      the reasoning, or the opaque data of a redacted block
     * @param signature the vendor's signature over the text, or null when it gave none
     * @param redacted  whether {@code text} is encrypted data rather than readable reasoning
     */
    record Reasoning(String text, String signature, boolean redacted) implements ContentPart {
        public Reasoning {
            Checks.present(text, "text");
        }

        public static Reasoning plain(String text) {
            return new Reasoning(text, null, false);
        }
    }
}
