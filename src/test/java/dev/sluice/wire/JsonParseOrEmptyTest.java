package dev.sluice.wire;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;

/** A body read as JSON where one that is not JSON is simply not the answer looked for. */
class JsonParseOrEmptyTest {

    @Test
    void readsJson() {
        assertThat(Json.parseOrEmpty(Buffer.buffer("{\"a\": 1}")).orElseThrow().path("a").asInt()).isEqualTo(1);
    }

    @Test
    void isEmptyForWhatIsNotJson() {
        assertThat(Json.parseOrEmpty(Buffer.buffer("<html>bad gateway</html>"))).isEmpty();
        assertThat(Json.parseOrEmpty(Buffer.buffer("{\"a\": "))).isEmpty();
    }
}
