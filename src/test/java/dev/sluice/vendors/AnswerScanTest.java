package dev.sluice.vendors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.wire.Json;
import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The scan of a relayed answer takes and refuses what a full parse does, and reads the same usage. */
class AnswerScanTest {

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void readsTheTopLevelUsageAndNoNestedOne() throws IOException {
        JsonNode usage = AnswerScan.usage(utf8("""
                {"id":"c1","choices":[{"message":{"content":"hi","usage":{"prompt_tokens":99}}}],
                 "usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5},"model":"m"}"""));

        assertThat(usage.path("prompt_tokens").asLong()).isEqualTo(3);
        assertThat(usage.path("total_tokens").asLong()).isEqualTo(5);
    }

    @Test
    void aUsageNamedTwiceIsTheLastAsAFullParseKeepsIt() throws IOException {
        byte[] body = utf8("{\"usage\":{\"total_tokens\":1},\"usage\":{\"total_tokens\":7}}");

        assertThat(AnswerScan.usage(body)).isEqualTo(Json.parse(body).get("usage"));
    }

    @Test
    void anObjectWithoutUsageHasAMissingOne() throws IOException {
        assertThat(AnswerScan.usage(utf8("{\"id\":\"x\"}")).isMissingNode()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"[1,2]", "\"text\"", "42", "null", ""})
    void jsonThatIsNotAnObjectIsNone(String body) throws IOException {
        assertThat(AnswerScan.usage(utf8(body))).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "{\"a\":1",                          // cut off
            "{\"a\":[1,2}",                      // unbalanced
            "{\"a\":\"unterminated}",            // a string never closed
            "{\"a\":1} {\"b\":2}",               // a second value after the object
            "{\"a\":1} x",                       // trailing text
            "[1] 2",                             // trailing value after a non-object
            "<html>bad gateway</html>",
            "{\"a\":tru}"})
    void whatAFullParseRefusesTheScanRefuses(String body) {
        assertThatThrownBy(() -> Json.parse(utf8(body))).isInstanceOf(IOException.class);
        assertThatThrownBy(() -> AnswerScan.usage(utf8(body))).isInstanceOf(IOException.class);
    }

    @Test
    void brokenUtf8InASkippedStringIsRefusedAsAFullParseRefusesIt() {
        byte[] body = {'{', '"', 'a', '"', ':', '"', (byte) 0xC3, 'x', '"', '}'};

        assertThatThrownBy(() -> Json.parse(body)).isInstanceOf(IOException.class);
        assertThatThrownBy(() -> AnswerScan.usage(body)).isInstanceOf(IOException.class);
    }

    @Test
    void aScannedAnswerIsRelayedAsItCameAndParsedOnlyWhenItsTreeIsAskedFor() {
        Buffer body = Buffer.buffer("{\"choices\":[{\"message\":{\"content\":\"hi\"}}],"
                + "\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":2,\"total_tokens\":5}}");

        OpenAiShape.ShapedAnswer answer = OpenAiShape.answer(body).orElseThrow();

        assertThat(answer.body()).isSameAs(body);
        assertThat(answer.totalTokens()).isEqualTo(5);
        assertThat(answer.completionTokens()).isEqualTo(2);
        assertThat(answer.usage().path("prompt_tokens").asLong()).isEqualTo(3);
        assertThat(answer.tree().at("/choices/0/message/content").asText()).isEqualTo("hi");
        assertThat(answer.tree()).isSameAs(answer.tree());
    }
}
