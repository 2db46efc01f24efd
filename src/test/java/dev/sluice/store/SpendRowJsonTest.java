package dev.sluice.store;

import static dev.sluice.store.StoreFixtures.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A spend row as a JSON line (the dead-letter file's): whether the cache answered the call, and its key. */
class SpendRowJsonTest {
    private static final String KEY = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
    /** A line's fields before rows said whether the cache answered, without its closing brace. */
    private static final String FIELDS_BEFORE_CACHE = "{\"call_id\":\"old\",\"model_group\":\"g\",\"prompt_tokens\":1,"
            + "\"completion_tokens\":2,\"total_tokens\":3,\"cost\":\"0.5\",\"status\":200,\"duration_ms\":9,"
            + "\"started_at\":\"" + T0 + "\"";

    private static byte[] withoutNewline(byte[] line) {
        return Arrays.copyOf(line, line.length - 1);
    }

    @Test
    void aHitsLineSaysSoAsABooleanWithItsKeyAndReadsBack() throws IOException {
        SpendRow hit = SpendRow.builder("call-hit", "gpt-4o", T0).cacheHit(true).cacheKey(KEY).build();

        byte[] line = SpendRowJson.lines(List.of(hit));

        JsonNode node = Json.parse(withoutNewline(line));
        assertThat(node.get("cache_hit").isBoolean()).isTrue();
        assertThat(node.get("cache_hit").booleanValue()).isTrue();
        assertThat(node.get("cache_key").textValue()).isEqualTo(KEY);
        assertThat(SpendRowJson.read(withoutNewline(line))).isEqualTo(hit);
    }

    @Test
    void aMissesLineSaysFalseAndHasNoKey() throws IOException {
        SpendRow miss = SpendRow.builder("call-miss", "gpt-4o", T0).build();

        byte[] line = withoutNewline(SpendRowJson.lines(List.of(miss)));

        JsonNode node = Json.parse(line);
        assertThat(node.get("cache_hit").booleanValue()).isFalse();
        assertThat(node.has("cache_key")).isFalse();
        assertThat(SpendRowJson.read(line)).isEqualTo(miss);
    }

    @Test
    void aLineWrittenBeforeRowsSaidReadsAsACallTheCacheDidNotAnswer() throws IOException {
        String line = FIELDS_BEFORE_CACHE + "}";

        SpendRow read = SpendRowJson.read(line.getBytes(StandardCharsets.UTF_8));

        assertThat(read.cacheHit()).isFalse();
        assertThat(read.cacheKey()).isEmpty();
    }

    @Test
    void liteLlmsStringFormIsNotABoolean() {
        String line = FIELDS_BEFORE_CACHE + ",\"cache_hit\":\"True\"}";

        assertThatThrownBy(() -> SpendRowJson.read(line.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IOException.class)
                .hasMessage("cache_hit: \"True\" (expected: true or false)");
    }
}
