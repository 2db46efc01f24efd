package dev.sluice.store;

import static dev.sluice.store.StoreFixtures.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The spend buffer on disk: exact round trips, its bound, torn lines, segments and restarts. */
class SpendBufferTest {
    @TempDir
    Path folder;

    @Test
    void rowsComeBackExactlyAsTheyWereWritten() {
        SpendRow full = SpendRow.builder("call-full", "gpt-4o", Instant.parse("2025-06-30T23:59:59.999999Z"))
                .keyHash(StoreFixtures.hash("sk-a"))
                .teamId("team \"quoted\" ünïcode")
                .userId("user-1")
                .deploymentId("azure-eu/gpt-4o")
                .promptTokens(Long.MAX_VALUE)
                .completionTokens(7)
                .totalTokens(Long.MAX_VALUE)
                .cost(new BigDecimal("123456789012345678.000000000001"))
                .status(429)
                .durationMs(12_345)
                .build();
        SpendRow bare = SpendRow.builder("call-bare", "claude", T0).cost(new BigDecimal("0.000000000001")).build();
        SpendRow rounded = SpendRow.builder("call-rounded", "gpt-4o", Instant.parse("2025-01-01T00:00:00.123456789Z"))
                .cost(new BigDecimal("0.12345678901234567"))
                .build();

        try (SpendBuffer buffer = SpendBuffer.open(folder, SpendBuffer.DEFAULT_MAX_BYTES)) {
            assertThat(buffer.append(List.of(full, bare, rounded))).isTrue();
            List<SpendRow> read = buffer.oldest(10).rows();

            assertThat(read).containsExactly(full, bare, rounded);
            assertThat(read.get(0).cost()).isEqualTo(new BigDecimal("123456789012345678.000000000001"));
            assertThat(read.get(1).cost().toPlainString()).isEqualTo("0.000000000001");
            assertThat(read.get(2).cost().toPlainString()).isEqualTo("0.123456789012");
            assertThat(read.get(2).startedAt()).isEqualTo(Instant.parse("2025-01-01T00:00:00.123456Z"));
            assertThat(read.get(1).keyHash()).isEmpty();
        }
    }

    @Test
    void anAppendUpToTheBoundIsTakenAndOnePastItIsRefusedChangingNothing() throws IOException {
        List<SpendRow> five = rows("a", 5);
        long size = SpendRowJson.lines(five).length;

        try (SpendBuffer exact = SpendBuffer.open(folder.resolve("exact"), size)) {
            assertThat(exact.append(five)).isTrue();
            assertThat(exact.bytes()).isEqualTo(size);

            assertThat(exact.append(rows("b", 1))).isFalse();
            assertThat(exact.bytes()).isEqualTo(size);
            assertThat(exact.rows()).isEqualTo(5);
        }
        try (SpendBuffer tooSmall = SpendBuffer.open(folder.resolve("too-small"), size - 1)) {
            assertThat(tooSmall.append(five)).isFalse();
            assertThat(tooSmall.isEmpty()).isTrue();
            assertThat(segments(folder.resolve("too-small"))).isEmpty();

            tooSmall.appendPastBound(five);
            assertThat(tooSmall.rows()).isEqualTo(5);
            assertThat(tooSmall.bytes()).isEqualTo(size);
        }
    }

    @Test
    void rowsSurviveAReopenAndWhatIsAppendedAfterComesAfterThem() {
        try (SpendBuffer buffer = SpendBuffer.open(folder, SpendBuffer.DEFAULT_MAX_BYTES)) {
            buffer.append(rows("first", 3));
        }

        try (SpendBuffer reopened = SpendBuffer.open(folder, SpendBuffer.DEFAULT_MAX_BYTES)) {
            assertThat(reopened.rows()).isEqualTo(3);
            assertThat(reopened.bytes()).isEqualTo(SpendRowJson.lines(rows("first", 3)).length);
            reopened.append(rows("second", 2));

            assertThat(callIds(drain(reopened, 100))).containsExactly("first-0", "first-1", "first-2", "second-0", "second-1");
            assertThat(reopened.isEmpty()).isTrue();
            assertThat(reopened.rows()).isZero();
        }
    }

    @Test
    void aChunkReadButNotRemovedBeforeARestartIsReadAgain() {
        // The writer removes a chunk only after the database committed it; a crash in between replays it.
        try (SpendBuffer buffer = SpendBuffer.open(folder, SpendBuffer.DEFAULT_MAX_BYTES)) {
            buffer.append(rows("c", 4));
            buffer.remove(buffer.oldest(1));
            assertThat(callIds(buffer.oldest(2).rows())).containsExactly("c-1", "c-2");
        }

        try (SpendBuffer reopened = SpendBuffer.open(folder, SpendBuffer.DEFAULT_MAX_BYTES)) {
            assertThat(reopened.rows()).isEqualTo(4);
            assertThat(callIds(reopened.oldest(10).rows())).containsExactly("c-0", "c-1", "c-2", "c-3");
        }
    }

    @Test
    void aTornLastLineAndAnUnreadableLineAreSkippedAndTheReplayGoesOn() throws IOException {
        try (SpendBuffer buffer = SpendBuffer.open(folder, SpendBuffer.DEFAULT_MAX_BYTES)) {
            buffer.append(rows("before", 2));
        }
        Path segment = segments(folder).getFirst();
        Files.write(segment, "not json\n{\"call_id\":\"torn-by-a-cra".getBytes(StandardCharsets.UTF_8),
                StandardOpenOption.APPEND);

        try (SpendBuffer reopened = SpendBuffer.open(folder, SpendBuffer.DEFAULT_MAX_BYTES)) {
            assertThat(reopened.rows()).isEqualTo(3);
            reopened.append(rows("after", 1));

            SpendBuffer.Chunk first = reopened.oldest(10);
            assertThat(callIds(first.rows())).containsExactly("before-0", "before-1");
            assertThat(first.lines()).isEqualTo(3);
            reopened.remove(first);

            assertThat(Files.exists(segment)).isFalse();
            assertThat(callIds(drain(reopened, 10))).containsExactly("after-0");
            assertThat(reopened.rows()).isZero();
            assertThat(reopened.bytes()).isZero();
        }
    }

    @Test
    void aSegmentIsDeletedOnceEveryRowInItWasRemoved() throws IOException {
        // 16 KiB bound: segments are sealed at 1 KiB, so each batch of five rows fills one.
        try (SpendBuffer buffer = SpendBuffer.open(folder, 16 * 1024)) {
            buffer.append(rows("a", 5));
            buffer.append(rows("b", 5));
            buffer.append(rows("c", 5));
            List<Path> three = segments(folder);
            assertThat(three).hasSize(3);
            long bytesOfA = Files.size(three.getFirst());

            SpendBuffer.Chunk partOfA = buffer.oldest(2);
            buffer.remove(partOfA);
            assertThat(segments(folder)).hasSize(3);
            assertThat(buffer.rows()).isEqualTo(13);

            SpendBuffer.Chunk restOfA = buffer.oldest(100);
            assertThat(callIds(restOfA.rows())).containsExactly("a-2", "a-3", "a-4");
            long before = buffer.bytes();
            buffer.remove(restOfA);

            assertThat(segments(folder)).containsExactlyElementsOf(three.subList(1, 3));
            assertThat(buffer.bytes()).isEqualTo(before - bytesOfA);
            assertThat(buffer.rows()).isEqualTo(10);
        }
    }

    @Test
    void onlyTheOldestChunkCanBeRemoved() {
        try (SpendBuffer buffer = SpendBuffer.open(folder, SpendBuffer.DEFAULT_MAX_BYTES)) {
            buffer.append(rows("c", 4));
            SpendBuffer.Chunk first = buffer.oldest(2);
            buffer.remove(first);

            assertThatThrownBy(() -> buffer.remove(first))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("is not the oldest");
        }
    }

    @Test
    void aFolderIsUsedByOneBufferAtATime() {
        try (SpendBuffer first = SpendBuffer.open(folder, SpendBuffer.DEFAULT_MAX_BYTES)) {
            assertThatThrownBy(() -> SpendBuffer.open(folder, SpendBuffer.DEFAULT_MAX_BYTES))
                    .isInstanceOfSatisfying(StoreException.class,
                            e -> assertThat(e.reason()).isEqualTo(StoreException.Reason.FAILED))
                    .hasMessage("open spend buffer " + folder.toAbsolutePath().normalize()
                            + ": in use by another buffer (buffer.lock is locked)");
        }
        SpendBuffer.open(folder, SpendBuffer.DEFAULT_MAX_BYTES).close();
    }

    @Test
    void aBoundBelowOneByteIsRefused() {
        assertThatThrownBy(() -> SpendBuffer.open(folder, 0)).hasMessage("maxBytes: 0 (expected: >= 1)");
    }

    static List<SpendRow> rows(String prefix, int count) {
        List<SpendRow> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            rows.add(SpendRow.builder(prefix + "-" + i, "gpt-4o", T0)
                    .keyHash(StoreFixtures.hash("sk-a"))
                    .teamId("team-a")
                    .promptTokens(100 + i)
                    .completionTokens(20)
                    .cost(new BigDecimal("0.00012" + i))
                    .build());
        }
        return rows;
    }

    private static List<SpendRow> drain(SpendBuffer buffer, int chunkRows) {
        List<SpendRow> all = new ArrayList<>();
        for (SpendBuffer.Chunk chunk = buffer.oldest(chunkRows); chunk != SpendBuffer.Chunk.NONE;
                chunk = buffer.oldest(chunkRows)) {
            all.addAll(chunk.rows());
            buffer.remove(chunk);
        }
        return all;
    }

    static List<String> callIds(List<SpendRow> rows) {
        return rows.stream().map(SpendRow::callId).toList();
    }

    static List<Path> segments(Path folder) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            return files.filter(f -> f.getFileName().toString().startsWith("segment-")).sorted().toList();
        }
    }
}
