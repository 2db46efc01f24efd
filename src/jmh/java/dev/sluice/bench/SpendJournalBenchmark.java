package dev.sluice.bench;

import dev.sluice.store.SpendRow;
import dev.sluice.store.journal.AppendResult;
import dev.sluice.store.journal.JournalOptions;
import dev.sluice.store.journal.JournalShipper;
import dev.sluice.store.journal.ShipperOptions;
import dev.sluice.store.journal.SpendJournal;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

/**
 * What a finished call pays to put its spend row in the {@link SpendJournal}: encoding, the
 * checksum and one write to the operating system, from one thread and from eight at once
 * (as eight event loops would). The group commit forces every 10 ms meanwhile, and a shipper
 * with a sink that takes everything keeps the journal under its bound, both on threads of
 * their own, as in the gateway. Each append must be accepted: a refused one fails the run.
 * Run with {@code JMH_FILTER=SpendJournalBenchmark bench/jmh.sh}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
public class SpendJournalBenchmark {

    /** A row as a keyed call through a team makes it: every optional value set. */
    static final SpendRow ROW = SpendRow.builder("chatcmpl-0f2e6c1a-3b7d-4e58-9a41-6d2c8b1f7e93", "gpt-4o-mini",
                    Instant.parse("2026-12-03T10:15:30.123456Z"))
            .keyHash("8f14e45fceea167a5a36dedd4bea2543b0e7f1a6c1d24e2f9b3c5a7d8e9f0a1b")
            .teamId("team-research")
            .userId("user-4711")
            .deploymentId("azure-gpt-4o-mini-eastus-2")
            .promptTokens(1250)
            .completionTokens(320)
            .cost(new BigDecimal("0.000379500000"))
            .durationMs(1840)
            .build();

    private Path folder;
    private SpendJournal journal;
    private JournalShipper shipper;

    @Setup(Level.Trial)
    public void open() throws IOException {
        folder = Files.createTempDirectory("sluice-journal-bench");
        journal = SpendJournal.open(JournalOptions.in(folder));
        shipper = JournalShipper.start(journal, rows -> rows.size(),
                ShipperOptions.DEFAULTS.withMaxBatchRows(10_000).withGatherWait(Duration.ofMillis(1)));
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        shipper.close();
        journal.close();
        try (Stream<Path> files = Files.walk(folder)) {
            files.sorted(Comparator.reverseOrder()).forEach(SpendJournalBenchmark::delete);
        }
    }

    private static void delete(Path file) {
        try {
            Files.delete(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private AppendResult accepted(AppendResult result) {
        if (!result.accepted()) {
            throw new IllegalStateException("append refused: " + result.outcome() + "; " + journal.status());
        }
        return result;
    }

    @Benchmark
    @Threads(1)
    public AppendResult append() {
        return accepted(journal.append(ROW));
    }

    @Benchmark
    @Threads(8)
    public AppendResult appendFromEightThreads() {
        return accepted(journal.append(ROW));
    }
}
