package dev.sluice.vendors.gemini.wire;

import static dev.sluice.vendors.gemini.wire.GeminiRequestEncodingTest.encode;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Gemini has no per-block cache control: a caller's {@code cache_control} marks are left out, neither sent nor refused. */
class GeminiCacheControlTest {
    private static final String MARKED = """
            {"model":"m","messages":[
              {"role":"system","content":"Be brief.","cache_control":{"type":"ephemeral"}},
              {"role":"user","content":[{"type":"text","text":"Hi","cache_control":{"type":"ephemeral","ttl":"1h"}}]}],
             "tools":[{"type":"function","function":{"name":"f"},"cache_control":{"type":"ephemeral"}}]}""";
    private static final String UNMARKED = """
            {"model":"m","messages":[
              {"role":"system","content":"Be brief."},
              {"role":"user","content":[{"type":"text","text":"Hi"}]}],
             "tools":[{"type":"function","function":{"name":"f"}}]}""";

    @Test
    void markedPartsMessagesAndToolsAreWrittenAsIfUnmarked() {
        GeminiRequest marked = encode(MARKED);

        assertThat(marked.body()).isEqualTo(encode(UNMARKED).body());
        assertThat(marked.body().toString()).doesNotContain("cache");
        assertThat(marked.unsupported()).isEmpty();
    }
}
