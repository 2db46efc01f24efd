package dev.sluice.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reading the spend buffer of earlier versions: segment files that version's own buffer
 * wrote come back exactly, torn and unreadable lines are skipped, and only a folder with
 * segments is opened, and only when no process of that version holds it.
 */
class LegacySpendBufferTest {
    @TempDir
    Path temp;

    @Test
    void rowsComeBackExactlyAsTheEarlierVersionWroteThemOldestSegmentFirst() {
        Path folder = LegacySpendFixtures.copyInto(temp.resolve("spend-buffer"));
        List<SpendRow> read = new ArrayList<>();

        try (LegacySpendBuffer legacy = LegacySpendBuffer.open(folder).orElseThrow()) {
            assertThat(legacy.segments()).extracting(file -> file.getFileName().toString())
                    .containsExactlyElementsOf(LegacySpendFixtures.SEGMENTS);
            assertThat(legacy.read(read::add)).isEqualTo(new LegacySpendBuffer.Reading(52, 0, true));
        }

        assertThat(read).containsExactlyElementsOf(LegacySpendFixtures.rows());
        SpendRow full = read.getFirst();
        assertThat(full.cost()).isEqualTo(new BigDecimal("123456.000000000001"));
        assertThat(full.tags()).containsExactly("batch", "team:eu");
        assertThat(read.get(1).accounts().keyHash()).isEmpty();
        assertThat(read.get(1).cost().toPlainString()).isEqualTo("0.000000000001");
    }

    @Test
    void aTornLastLineAndAnUnreadableLineAreSkippedAndTheRestIsRead() throws IOException {
        Path folder = LegacySpendFixtures.copyInto(temp.resolve("spend-buffer"));
        Path first = folder.resolve(LegacySpendFixtures.SEGMENTS.getFirst());
        Path second = folder.resolve(LegacySpendFixtures.SEGMENTS.get(1));
        Files.write(first, "not json\n{\"call_id\":\"no-model\"}\n".getBytes(StandardCharsets.UTF_8),
                StandardOpenOption.APPEND);
        Files.write(second, "{\"call_id\":\"torn-by-a-cra".getBytes(StandardCharsets.UTF_8), StandardOpenOption.APPEND);
        List<SpendRow> read = new ArrayList<>();

        try (LegacySpendBuffer legacy = LegacySpendBuffer.open(folder).orElseThrow()) {
            assertThat(legacy.read(read::add)).isEqualTo(new LegacySpendBuffer.Reading(52, 3, true));
        }

        assertThat(read).containsExactlyElementsOf(LegacySpendFixtures.rows());
    }

    @Test
    void aTakerThatRefusesARowStopsTheReadThere() throws IOException {
        Path folder = LegacySpendFixtures.copyInto(temp.resolve("spend-buffer"));
        List<SpendRow> taken = new ArrayList<>();

        try (LegacySpendBuffer legacy = LegacySpendBuffer.open(folder).orElseThrow()) {
            LegacySpendBuffer.Reading reading = legacy.read(row -> taken.size() < 40 && taken.add(row));

            assertThat(reading).isEqualTo(new LegacySpendBuffer.Reading(40, 0, false));
        }
        assertThat(taken).containsExactlyElementsOf(LegacySpendFixtures.rows().subList(0, 40));
        assertThat(names(folder)).containsExactlyInAnyOrder(LegacySpendFixtures.SEGMENTS.get(0),
                LegacySpendFixtures.SEGMENTS.get(1), "buffer.lock");
    }

    @Test
    void deletingTakesTheSegmentsTheLockAndTheFolderButLeavesADeadLetterFileAndItsFolder() throws IOException {
        Path bare = LegacySpendFixtures.copyInto(temp.resolve("bare"));
        Path withDeadLetters = LegacySpendFixtures.copyInto(temp.resolve("with-dead-letters"));
        Files.writeString(withDeadLetters.resolve(DeadLetters.FILE_NAME), "{\"call_id\":\"refused\"}\n");

        try (LegacySpendBuffer legacy = LegacySpendBuffer.open(bare).orElseThrow()) {
            assertThat(legacy.delete()).isTrue();
        }
        try (LegacySpendBuffer legacy = LegacySpendBuffer.open(withDeadLetters).orElseThrow()) {
            assertThat(legacy.delete()).isFalse();
        }

        assertThat(bare).doesNotExist();
        assertThat(names(withDeadLetters)).containsExactly(DeadLetters.FILE_NAME);
    }

    @Test
    void aMissingFolderOrOneWithoutSegmentsIsNotOpenedAndNotTouched() throws IOException {
        Path empty = Files.createDirectories(temp.resolve("empty"));
        Path deadLettersOnly = Files.createDirectories(temp.resolve("dead-letters-only"));
        Files.writeString(deadLettersOnly.resolve(DeadLetters.FILE_NAME), "{}\n");
        Files.writeString(deadLettersOnly.resolve("segment-1.jsonl"), "not a segment's name\n");

        assertThat(LegacySpendBuffer.open(temp.resolve("missing"))).isEmpty();
        assertThat(LegacySpendBuffer.open(empty)).isEmpty();
        assertThat(LegacySpendBuffer.open(deadLettersOnly)).isEmpty();

        assertThat(temp.resolve("missing")).doesNotExist();
        assertThat(names(empty)).isEmpty();
        assertThat(names(deadLettersOnly)).containsExactlyInAnyOrder(DeadLetters.FILE_NAME, "segment-1.jsonl");
    }

    @Test
    void aFolderAProcessOfTheEarlierVersionHoldsIsRefused() throws IOException {
        Path folder = LegacySpendFixtures.copyInto(temp.resolve("spend-buffer"));
        try (FileChannel channel = FileChannel.open(folder.resolve("buffer.lock"), StandardOpenOption.WRITE);
                FileLock held = channel.lock()) {
            assertThatThrownBy(() -> LegacySpendBuffer.open(folder))
                    .isInstanceOfSatisfying(StoreException.class,
                            e -> assertThat(e.reason()).isEqualTo(StoreException.Reason.FAILED))
                    .hasMessage("open spend buffer " + folder.toAbsolutePath().normalize()
                            + ": in use by another process (buffer.lock is locked)");
        }
        LegacySpendBuffer.open(folder).orElseThrow().close();
    }

    private static List<String> names(Path folder) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            return files.map(file -> file.getFileName().toString()).toList();
        }
    }
}
