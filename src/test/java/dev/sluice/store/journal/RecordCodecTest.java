package dev.sluice.store.journal;

import static dev.sluice.store.journal.JournalFixtures.T0;
import static dev.sluice.store.journal.JournalFixtures.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.store.SpendRow;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The record format: a frame holds its row exactly, its checksum catches a changed byte, and its size is bounded. */
class RecordCodecTest {
    static ByteBuffer frame(SpendRow row, long appendedAt) {
        RecordCodec.Encoded encoded = RecordCodec.prepare(row);
        ByteBuffer frame = ByteBuffer.allocate(encoded.frameBytes());
        encoded.writeTo(frame, appendedAt);
        assertThat(frame.hasRemaining()).as("the frame fills its computed size").isFalse();
        return frame.flip();
    }

    static RecordCodec.Entry decode(ByteBuffer frame) {
        int length = frame.getInt(0);
        assertThat(RecordCodec.checksumMatches(frame, RecordCodec.HEADER_BYTES, length, frame.getInt(4))).isTrue();
        return RecordCodec.decode(frame.slice(RecordCodec.HEADER_BYTES, length)).orElseThrow();
    }

    @Test
    void aFrameHoldsItsRowExactlyAndWhenItWasAppended() {
        SpendRow row = SpendRow.builder("call-ü", "gpt-4o", T0.plusNanos(999_999_000)).userId("u")
                .cost(new BigDecimal("98765.000000000001")).status(599).build();

        RecordCodec.Entry entry = decode(frame(row, 1234L));

        assertThat(entry.row()).isEqualTo(row);
        assertThat(entry.row().cost()).isEqualByComparingTo("98765.000000000001");
        assertThat(entry.appendedAtMillis()).isEqualTo(1234L);
    }

    @Test
    void aRowWithNothingOptionalTakesTheSmallestBodyPlusItsStringsAndCost() {
        SpendRow row = SpendRow.builder("c", "g", T0).build();

        assertThat(frame(row, 0).limit()).isEqualTo(RecordCodec.HEADER_BYTES + RecordCodec.MIN_BODY_BYTES
                + RecordCodec.VERSION_2_FIELD_BYTES + 2 + 1);
    }

    @Test
    void aFrameHoldsTheRowsCachedTokensAndTagsInTheirOrder() {
        SpendRow row = SpendRow.builder("call-t", "g", T0).promptTokens(90).cachedTokens(64)
                .tags(List.of("team-é", "batch", "prod")).build();

        SpendRow read = decode(frame(row, 0)).row();

        assertThat(read).isEqualTo(row);
        assertThat(read.tags()).containsExactly("team-é", "batch", "prod");
        assertThat(read.tokens().cachedTokens()).isEqualTo(64);
    }

    @Test
    void aVersionOneRecordIsReadWithNoCachedTokensAndNoTags() {
        SpendRow row = SpendRow.builder("call-v1", "g", T0).promptTokens(7).build();
        ByteBuffer frame = frame(row, 5);
        int v1Length = frame.getInt(0) - RecordCodec.VERSION_2_FIELD_BYTES;
        ByteBuffer v1 = ByteBuffer.allocate(v1Length);
        v1.put(frame.slice(RecordCodec.HEADER_BYTES, v1Length)).put(0, (byte) 1).flip();

        RecordCodec.Entry entry = RecordCodec.decode(v1).orElseThrow();

        assertThat(entry.row()).isEqualTo(row);
        assertThat(entry.appendedAtMillis()).isEqualTo(5);
        assertThat(RecordCodec.decode(ByteBuffer.wrap(new byte[] {4})).isEmpty()).as("an unknown version").isTrue();
    }

    @Test
    void aFrameReadyToWriteHoldsItsRowOnAnEventLoopsThreadAndOnAVirtualOne() throws Exception {
        SpendRow first = row("call-1");
        SpendRow second = SpendRow.builder("call-2", "g".repeat(3000), T0).build();

        ByteBuffer platform = RecordCodec.prepare(first).frame(7);
        assertThat(platform.isDirect()).isTrue();
        assertThat(decode(platform).row()).isEqualTo(first);
        ByteBuffer grown = RecordCodec.prepare(second).frame(8);
        assertThat(decode(grown).row()).as("a frame larger than the kept buffer").isEqualTo(second);
        ByteBuffer[] virtual = new ByteBuffer[1];
        Thread.ofVirtual().start(() -> virtual[0] = RecordCodec.prepare(first).frame(9)).join();
        assertThat(virtual[0].isDirect()).isFalse();
        assertThat(decode(virtual[0]).row()).isEqualTo(first);
    }

    @Test
    void anyChangedByteOfTheBodyFailsTheChecksum() {
        ByteBuffer frame = frame(row("call-1"), 0);
        int length = frame.getInt(0);
        for (int at = RecordCodec.HEADER_BYTES; at < frame.limit(); at++) {
            frame.put(at, (byte) (frame.get(at) ^ 1));
            assertThat(RecordCodec.checksumMatches(frame, RecordCodec.HEADER_BYTES, length, frame.getInt(4)))
                    .as("byte %d changed", at).isFalse();
            frame.put(at, (byte) (frame.get(at) ^ 1));
        }
    }

    @Test
    void aRowTooLargeForARecordIsRefusedNamingIt() {
        SpendRow huge = SpendRow.builder("call-huge", "g".repeat(RecordCodec.MAX_BODY_BYTES), T0).build();

        assertThatThrownBy(() -> RecordCodec.prepare(huge))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("row call-huge: ")
                .hasMessageEndingWith("bytes encoded (expected: <= 1048576)");
        assertThat(RecordCodec.plausibleLength(RecordCodec.MAX_BODY_BYTES)).isTrue();
        assertThat(RecordCodec.plausibleLength(RecordCodec.MAX_BODY_BYTES + 1)).isFalse();
        assertThat(RecordCodec.plausibleLength(RecordCodec.MIN_BODY_BYTES - 1)).isFalse();
    }
}
