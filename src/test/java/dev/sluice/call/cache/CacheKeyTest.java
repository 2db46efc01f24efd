package dev.sluice.call.cache;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CacheKeyTest {
    private static final String CHAT = "{\"model\":\"g\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"temperature\":1}";

    @Test
    void theKeyIsTheHexOfASha256AfterTheNamespace() {
        String key = key("chat_completions", "g", CHAT, Optional.empty());
        assertThat(key).matches("[0-9a-f]{64}");
        assertThat(key("chat_completions", "g", CHAT, Optional.of("team-a"))).isEqualTo("team-a:" + key);
    }

    @Test
    void fieldOrderAndTheWayANumberIsWrittenDoNotSplitEntries() {
        String reordered = "{\"temperature\":1.0,\"messages\":[{\"content\":\"hi\",\"role\":\"user\"}],\"model\":\"g\"}";
        assertThat(key("chat_completions", "g", reordered, Optional.empty()))
                .isEqualTo(key("chat_completions", "g", CHAT, Optional.empty()));
    }

    @Test
    void whatNeverReachesAModelIsNotInTheKey() {
        String withExtras = "{\"model\":\"g\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"temperature\":1,"
                + "\"user\":\"u-1\",\"metadata\":{\"tags\":[\"a\"]},\"tags\":[\"b\"],\"cache\":{\"ttl\":5},"
                + "\"num_retries\":3,\"fallbacks\":[\"other\"],\"timeout\":9,\"router_settings_override\":{}}";
        assertThat(key("chat_completions", "g", withExtras, Optional.empty()))
                .isEqualTo(key("chat_completions", "g", CHAT, Optional.empty()));
    }

    @Test
    void whatShapesTheAnswerSplitsEntries() {
        String base = key("chat_completions", "g", CHAT, Optional.empty());
        assertThat(key("chat_completions", "g", CHAT.replace("\"hi\"", "\"hi!\""), Optional.empty())).isNotEqualTo(base);
        assertThat(key("chat_completions", "g", CHAT.replace("\"temperature\":1", "\"temperature\":0.5"), Optional.empty()))
                .isNotEqualTo(base);
        assertThat(key("chat_completions", "g", CHAT.replace("\"temperature\":1", "\"temperature\":1,\"stream\":true"),
                Optional.empty())).as("a stream is stored as one").isNotEqualTo(base);
        assertThat(key("chat_completions", "other", CHAT, Optional.empty())).isNotEqualTo(base);
        assertThat(key("completions", "g", CHAT, Optional.empty())).isNotEqualTo(base);
        assertThat(key("chat_completions", "g", CHAT.replace("}]", "}],\"tools\":[]"), Optional.empty())).isNotEqualTo(base);
    }

    @Test
    void theGuardrailsARequestNamesAndItsVendorHeadersSplitEntries() {
        String base = key("chat_completions", "g", CHAT, Optional.empty());
        assertThat(key("chat_completions", "g", CHAT.replace("}]", "}],\"guardrails\":[\"no-secrets\"]"), Optional.empty()))
                .as("a hit is not checked again: an answer given without a guardrail must not answer a call that names it")
                .isNotEqualTo(base);
        assertThat(CacheKey.of("chat_completions", "g", json(CHAT), Map.of("anthropic-beta", "tools-1"), Optional.empty()))
                .isNotEqualTo(base)
                .isNotEqualTo(CacheKey.of("chat_completions", "g", json(CHAT), Map.of("anthropic-beta", "tools-2"), Optional.empty()));
    }

    @Test
    void aNumberPastADoublesRangeIsHashedByItsText() {
        assertThat(key("chat_completions", "g", CHAT.replace("\"temperature\":1", "\"temperature\":1e400"), Optional.empty()))
                .matches("[0-9a-f]{64}")
                .isNotEqualTo(key("chat_completions", "g", CHAT.replace("\"temperature\":1", "\"temperature\":-1e400"),
                        Optional.empty()));
    }

    @Test
    void valuesOfDifferentTypesNeverHashAlike() {
        assertThat(key("e", "g", "{\"input\":\"1\"}", Optional.empty())).isNotEqualTo(key("e", "g", "{\"input\":1}", Optional.empty()));
        assertThat(key("e", "g", "{\"input\":[\"ab\"]}", Optional.empty()))
                .isNotEqualTo(key("e", "g", "{\"input\":[\"a\",\"b\"]}", Optional.empty()));
        assertThat(key("e", "g", "{\"input\":null}", Optional.empty())).isNotEqualTo(key("e", "g", "{\"input\":false}", Optional.empty()));
    }

    private static String key(String api, String group, String body, Optional<String> namespace) {
        return CacheKey.of(api, group, json(body), Map.of(), namespace);
    }

    private static JsonNode json(String body) {
        try {
            return Json.parse(body.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalArgumentException(e);
        }
    }
}
