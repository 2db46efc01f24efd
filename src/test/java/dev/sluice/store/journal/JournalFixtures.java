package dev.sluice.store.journal;

import dev.sluice.store.SpendRow;
import dev.sluice.time.Scheduler;
import dev.sluice.time.TimeSource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;

/** Rows, options, the time and jobs the journal runs on, and a crash of the process, for the journal's tests. */
final class JournalFixtures {
    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    static final Duration WAIT = Duration.ofSeconds(30);
    /** The system's time, for the tests that watch a journal commit and ship as it would in a gateway. */
    static final TimeSource TIME = TimeSource.system();
    /**
     * The jobs those journals run on. Never closed: each journal and shipper stops and joins its
     * own thread when it closes, as in a gateway.
     */
    static final Scheduler JOBS = Scheduler.on(TIME);

    private JournalFixtures() {}

    static SpendRow row(String callId) {
        return SpendRow.builder(callId, "gpt-4o", T0)
                .keyHash("hash-of-" + callId)
                .promptTokens(120)
                .completionTokens(30)
                .cost(new BigDecimal("0.000123"))
                .durationMs(450)
                .build();
    }

    /** Small segments (1 KiB: about eight rows) and a bound of {@code segments} of them. */
    static JournalOptions small(Path folder, int segments) {
        return JournalOptions.in(folder, TIME).withSegmentBytes(1024).withMaxBytes(1024L * segments);
    }

    /**
     * What a crash of the process leaves: the journal's files as the operating system has
     * them at this moment, copied to a new folder, with no close and no final force.
     */
    static Path crashCopy(Path folder, Path into) {
        try {
            Files.createDirectories(into);
            try (Stream<Path> files = Files.list(folder)) {
                for (Path file : files.toList()) {
                    Files.copy(file, into.resolve(file.getFileName()), StandardCopyOption.REPLACE_EXISTING);
                }
            }
            return into;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<Path> segmentFiles(Path folder) {
        try (Stream<Path> files = Files.list(folder)) {
            return files.filter(file -> Segment.sequenceOf(file).isPresent()).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads up to {@code rows} pending records once all are forced: the reader takes forced records only. */
    static JournalBatch read(SpendJournal journal, int rows) {
        journal.sync();
        return journal.read(rows);
    }

    /** Reads and acknowledges everything pending, as a shipper whose sink takes all would. */
    static List<SpendRow> drain(SpendJournal journal) {
        journal.sync();
        List<SpendRow> rows = new java.util.ArrayList<>();
        while (true) {
            JournalBatch batch = journal.read(100);
            if (batch.isEmpty()) {
                return rows;
            }
            rows.addAll(batch.rows());
            journal.acknowledge(batch);
        }
    }
}
