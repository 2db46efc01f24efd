package dev.sluice.failure;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.wire.Json;
import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What an upstream error body says about itself, lower-cased: the machine codes and the
 * human messages its provider wrote.
 *
 * <p>From a JSON body only the fields providers write are read, never the whole text: a
 * validation error may echo the request back (FastAPI's {@code detail[].input}), and the
 * caller's own prompt must not be able to steer the classification. The shapes read are
 * OpenAI and Azure OpenAI ({@code error.code}, {@code error.message},
 * {@code error.innererror.code}), Anthropic ({@code error.message}), FastAPI
 * ({@code detail} as text or as a list of {@code {msg}}), vLLM and others with top-level
 * {@code code}/{@code message}, and a bare {@code error} string. A body that is not JSON
 * (an HTML page, a proxy's plain text, JSON cut short) is one message: its whole text.
 *
 * @param codes    the codes found, e.g. {@code context_length_exceeded}
 * @param messages the messages found, or the whole text of a body that is not JSON
 */
record ErrorBody(List<String> codes, List<String> messages) {

    ErrorBody {
        codes = List.copyOf(codes);
        messages = List.copyOf(messages);
    }

    static ErrorBody read(Buffer body) {
        if (body.length() == 0) {
            return new ErrorBody(List.of(), List.of());
        }
        JsonNode root;
        try {
            root = Json.parse(body.getBytes());
        } catch (IOException e) {
            return new ErrorBody(List.of(), List.of(lower(body.toString(StandardCharsets.UTF_8))));
        }
        List<String> codes = new ArrayList<>();
        List<String> messages = new ArrayList<>();
        JsonNode error = root.path("error");
        addText(codes, error.path("code"));
        addText(codes, error.path("innererror").path("code"));
        addText(codes, error.path("inner_error").path("code"));
        addText(codes, root.path("code"));
        addText(messages, root);
        addText(messages, error);
        addText(messages, error.path("message"));
        addText(messages, root.path("message"));
        JsonNode detail = root.path("detail");
        addText(messages, detail);
        if (detail.isArray()) {
            for (JsonNode item : detail) {
                addText(messages, item.path("msg"));
            }
        }
        return new ErrorBody(codes, messages);
    }

    /** Whether any code equals one of {@code candidates} (given lower-case). */
    boolean hasCode(List<String> candidates) {
        return codes.stream().anyMatch(candidates::contains);
    }

    /** Whether any message contains one of {@code phrases} (given lower-case). */
    boolean mentions(List<String> phrases) {
        return messages.stream().anyMatch(message -> phrases.stream().anyMatch(message::contains));
    }

    private static void addText(List<String> into, JsonNode node) {
        if (node.isTextual() && !node.textValue().isBlank()) {
            into.add(lower(node.textValue()));
        }
    }

    private static String lower(String text) {
        return text.toLowerCase(Locale.ROOT);
    }
}
