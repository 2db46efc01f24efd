package dev.sluice.store;

import static dev.sluice.store.StoreFixtures.T0;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The spend row's binary body against its format, written out field by field here rather
 * than by the codec: what each version holds, and that a body of an earlier version still reads.
 */
class SpendRowCodecTest {
    private static final String KEY = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

    /** The row of {@link #byHand}, with what its version 1 fields hold. */
    private static SpendRow.Builder handWrittenRow() {
        return SpendRow.builder("c-1", "g", T0).teamId("t").promptTokens(7).completionTokens(3)
                .cost(new BigDecimal("0.5")).durationMs(42);
    }

    /** A body of {@code version}, appended at 5 ms, from the format in {@link SpendRowCodec}'s comment. */
    private static ByteBuffer byHand(int version, int cacheHit, String cacheKey) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeByte(version);
        out.writeLong(5);
        text(out, "c-1");
        out.writeInt(-1);
        text(out, "t");
        out.writeInt(-1);
        text(out, "g");
        out.writeInt(-1);
        out.writeLong(7);
        out.writeLong(3);
        out.writeLong(10);
        byte[] unscaled = BigInteger.valueOf(500_000_000_000L).toByteArray();
        out.writeInt(12);
        out.writeInt(unscaled.length);
        out.write(unscaled);
        out.writeInt(200);
        out.writeLong(42);
        out.writeLong(T0.getEpochSecond());
        out.writeInt(0);
        if (version >= 2) {
            out.writeLong(4);
            out.writeInt(1);
            text(out, "prod");
        }
        if (version >= 3) {
            out.writeByte(cacheHit);
            if (cacheKey == null) {
                out.writeInt(-1);
            } else {
                text(out, cacheKey);
            }
        }
        return ByteBuffer.wrap(bytes.toByteArray());
    }

    private static void text(DataOutputStream out, String value) throws IOException {
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        out.writeInt(utf8.length);
        out.write(utf8);
    }

    private static ByteBuffer encoded(SpendRow row) {
        SpendRowCodec.Encoded encoded = SpendRowCodec.prepare(row);
        ByteBuffer body = ByteBuffer.allocate(encoded.bodyBytes());
        encoded.writeBody(body, 5);
        assertThat(body.hasRemaining()).as("the body fills its computed size").isFalse();
        return body.flip();
    }

    private static SpendRow decoded(ByteBuffer body) {
        SpendRowCodec.Decoded decoded = SpendRowCodec.decode(body).orElseThrow();
        assertThat(decoded.appendedAtMillis()).isEqualTo(5);
        return decoded.row();
    }

    @Test
    void aCallTheCacheAnsweredIsWrittenAsVersion3WithItsKey() throws IOException {
        SpendRow hit = handWrittenRow().cachedTokens(4).tags(List.of("prod")).cacheHit(true).cacheKey(KEY).build();

        assertThat(encoded(hit)).isEqualTo(byHand(3, 1, KEY));
        SpendRow read = decoded(encoded(hit));
        assertThat(read).isEqualTo(hit);
        assertThat(read.cacheHit()).isTrue();
        assertThat(read.cacheKey()).contains(KEY);
    }

    @Test
    void aHitWithoutAKeyAndAMissStoredUnderOneAreVersion3Too() throws IOException {
        SpendRow hit = handWrittenRow().cachedTokens(4).tags(List.of("prod")).cacheHit(true).build();
        SpendRow stored = handWrittenRow().cachedTokens(4).tags(List.of("prod")).cacheKey(KEY).build();

        assertThat(encoded(hit)).isEqualTo(byHand(3, 1, null));
        assertThat(encoded(stored)).isEqualTo(byHand(3, 0, KEY));
        assertThat(decoded(encoded(hit))).isEqualTo(hit);
        assertThat(decoded(encoded(stored))).isEqualTo(stored);
    }

    @Test
    void aCallTheCacheHadNoPartInIsWrittenAsVersion2ByteForByte() throws IOException {
        SpendRow miss = handWrittenRow().cachedTokens(4).tags(List.of("prod")).build();

        assertThat(encoded(miss)).as("what the release before the cache wrote").isEqualTo(byHand(2, 0, null));
        assertThat(decoded(encoded(miss))).isEqualTo(miss);
    }

    @Test
    void versionOneAndTwoBodiesReadAsCallsTheCacheDidNotAnswer() throws IOException {
        SpendRow v1 = decoded(byHand(1, 0, null));
        SpendRow v2 = decoded(byHand(2, 0, null));

        assertThat(v1).isEqualTo(handWrittenRow().build());
        assertThat(v2).isEqualTo(handWrittenRow().cachedTokens(4).tags(List.of("prod")).build());
        assertThat(List.of(v1, v2)).allSatisfy(row -> {
            assertThat(row.cacheHit()).isFalse();
            assertThat(row.cacheKey()).isEmpty();
        });
    }

    @Test
    void aBodyOfAnUnknownVersionOrWithABadFlagOrKeyIsNotARow() throws IOException {
        ByteBuffer badFlag = byHand(3, 2, null);
        ByteBuffer version4 = byHand(3, 1, null).put(0, (byte) 4);
        ByteBuffer version0 = byHand(1, 0, null).put(0, (byte) 0);
        ByteBuffer upperCaseKey = byHand(3, 1, KEY.toUpperCase());

        assertThat(List.of(badFlag, version4, version0, upperCaseKey))
                .allSatisfy(body -> assertThat(SpendRowCodec.decode(body)).isEmpty());
    }
}
