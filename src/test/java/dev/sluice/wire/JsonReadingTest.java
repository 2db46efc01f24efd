package dev.sluice.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;

/** A body is parsed within its limits, on both sides of each; what it parsed is counted for the budget. */
class JsonReadingTest {
    private static Buffer array(int emptyObjects) {
        StringBuilder body = new StringBuilder("[");
        for (int i = 0; i < emptyObjects; i++) {
            body.append(i == 0 ? "{}" : ",{}");
        }
        return Buffer.buffer(body.append(']').toString());
    }

    private static Buffer nested(int depth) {
        return Buffer.buffer("[".repeat(depth) + "]".repeat(depth));
    }

    @Test
    void aBodyOfExactlyTheMostTokensIsParsedAndCounted() {
        // [ {} {} ... ] : two tokens an object, two for the array.
        JsonReading reading = new JsonReading(new JsonLimits(16, 2 * 100 + 2));

        assertThat(reading.parse(array(100))).get().extracting(node -> node.size()).isEqualTo(100);
        assertThat(reading.tokens()).isEqualTo(202);
        assertThat(reading.treeBytes()).isEqualTo(202 * JsonLimits.TREE_BYTES_PER_TOKEN);
    }

    @Test
    void oneTokenMoreIsA413NamingTheSetting() {
        JsonReading reading = new JsonReading(new JsonLimits(16, 2 * 100 + 1));

        assertThatThrownBy(() -> reading.parse(array(100))).isInstanceOfSatisfying(ApiError.class, e -> {
            assertThat(e.status()).isEqualTo(413);
            assertThat(e.code()).isEqualTo("json_too_large");
            assertThat(e.getMessage()).contains("201 tokens").contains("general_settings.max_json_tokens");
        });
    }

    @Test
    void aMillionEmptyObjectsStopAtTheDefaultLimitWithoutBuildingTheTree() {
        JsonReading reading = new JsonReading(JsonLimits.DEFAULTS);

        assertThatThrownBy(() -> reading.parse(array(1_000_000))).isInstanceOfSatisfying(ApiError.class,
                e -> assertThat(e.status()).isEqualTo(413));
        assertThat(reading.tokens()).isBetween(JsonLimits.DEFAULT_MAX_TOKENS, JsonLimits.DEFAULT_MAX_TOKENS + 1);
    }

    @Test
    void nestingToTheMostDepthIsParsedAndOneDeeperIsA400() {
        assertThat(new JsonReading(new JsonLimits(8, 1000)).parse(nested(8))).isPresent();

        assertThatThrownBy(() -> new JsonReading(new JsonLimits(8, 1000)).parse(nested(9)))
                .isInstanceOfSatisfying(ApiError.class, e -> {
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.code()).isEqualTo("json_too_deep");
                    assertThat(e.getMessage()).contains("more than 8 deep").contains("general_settings.max_json_depth");
                });
    }

    @Test
    void whatIsNotJsonIsStillAnInvalidJson400AndTrailingDataIsRefused() {
        JsonReading reading = new JsonReading(JsonLimits.DEFAULTS);

        assertThatThrownBy(() -> reading.parse(Buffer.buffer("{\"a\":"))).isInstanceOfSatisfying(ApiError.class,
                e -> assertThat(e.code()).isEqualTo("invalid_json"));
        assertThatThrownBy(() -> reading.parse(Buffer.buffer("{} {}"))).isInstanceOfSatisfying(ApiError.class,
                e -> assertThat(e.code()).isEqualTo("invalid_json"));
        assertThat(reading.parse(Buffer.buffer("  "))).isEmpty();
    }

    @Test
    void longStringsAreBoundedByTheBodySizeNotByTheParser() {
        String image = "a".repeat(25 * 1024 * 1024);

        assertThat(new JsonReading(JsonLimits.DEFAULTS).parse(Buffer.buffer("{\"image\":\"" + image + "\"}")))
                .get().extracting(node -> node.path("image").textValue().length()).isEqualTo(image.length());
    }
}
