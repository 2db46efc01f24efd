package dev.sluice.vendors.vertex.provider;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A deployment's {@code vertex_credentials} as LiteLLM takes it: a service-account key's JSON,
 * or the path of a file holding it. A value wrapped in quotes (a YAML value that is a quoted JSON
 * string, or an environment variable holding one) is unquoted first, so that an inline key is
 * not taken for a path. Failures name the problem only: the exceptions of file reading and JSON
 * parsing may quote the key, private key included, so their messages are never passed on.
 */
final class VertexKey {
    static final String UNREADABLE = "vertex_credentials: cannot read the service-account key file";
    static final String NOT_A_KEY = "vertex_credentials: is not a service-account key";

    /** A key that cannot be used, with a message that holds nothing of the key. */
    static final class Unusable extends IllegalStateException {
        Unusable(String problem) {
            super(problem);
        }
    }

    private VertexKey() {}

    /** The configured value without surrounding blanks and without one pair of enclosing quotes. */
    static String unquote(String configured) {
        String value = configured.strip();
        if (value.length() < 2) {
            return value;
        }
        char first = value.charAt(0);
        if ((first == '"' || first == '\'') && value.charAt(value.length() - 1) == first) {
            if (first == '"') {
                try {
                    // A JSON string literal: its escapes (\" inside an inline key) are undone too.
                    JsonNode text = Json.parse(value.getBytes(StandardCharsets.UTF_8));
                    if (text.isTextual()) {
                        return text.textValue().strip();
                    }
                } catch (IOException | RuntimeException e) {
                    // not a JSON string literal: only the quotes are taken off
                }
            }
            return value.substring(1, value.length() - 1).strip();
        }
        return value;
    }

    /** Whether the (unquoted) value is the key's JSON itself rather than a file's path. */
    static boolean inline(String value) {
        return value.startsWith("{");
    }

    /** The key's JSON: the inline value, or the named file's content. */
    static byte[] bytes(String configured) {
        String value = unquote(configured);
        if (inline(value)) {
            return value.getBytes(StandardCharsets.UTF_8);
        }
        try {
            return Files.readAllBytes(Path.of(value));
        } catch (IOException | RuntimeException e) {
            throw new Unusable(UNREADABLE);
        }
    }

    /** The key's {@code project_id}; a key that cannot be read or parsed gives none. */
    static Optional<String> projectId(String configured) {
        try {
            JsonNode key = Json.parse(bytes(configured));
            JsonNode project = key.path("project_id");
            return project.isTextual() && !project.textValue().isBlank() ? Optional.of(project.textValue()) : Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
