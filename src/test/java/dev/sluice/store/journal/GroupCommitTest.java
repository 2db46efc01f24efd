package dev.sluice.store.journal;

import static dev.sluice.store.journal.JournalFixtures.TIME;
import static dev.sluice.store.journal.JournalFixtures.JOBS;
import static dev.sluice.store.journal.JournalFixtures.WAIT;
import static dev.sluice.store.journal.JournalFixtures.row;
import static dev.sluice.store.journal.JournalFixtures.small;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.FakeTime;
import dev.sluice.testing.TestSupervision;
import dev.sluice.time.JobRestarts;
import dev.sluice.time.RestartBackoff;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The group commit, watched through the force hook: appenders never force, the commit
 * forces only when something was written, sealed segments are forced before they are
 * closed, and a failed force leaves the rows not durable until a later one succeeds.
 */
class GroupCommitTest {
    @TempDir
    Path folder;

    /** Every force: the thread that made it and the file it forced. */
    record Force(String thread, FileChannel channel) {}

    static final class Recorder implements ForceHook {
        final List<Force> forces = Collections.synchronizedList(new ArrayList<>());
        final AtomicBoolean failing = new AtomicBoolean();

        @Override
        public void force(FileChannel channel) throws IOException {
            if (failing.get()) {
                throw new IOException("the disk is gone");
            }
            channel.force(false);
            forces.add(new Force(Thread.currentThread().getName(), channel));
        }

        List<Force> snapshot() {
            synchronized (forces) {
                return List.copyOf(forces);
            }
        }
    }

    @Test
    void appendsNeverForceOnTheCallersThreadTheCommitThreadDoes() throws Exception {
        Recorder recorder = new Recorder();
        try (SpendJournal journal = SpendJournal.open(JournalOptions.in(folder, TIME), recorder, JOBS)) {
            long position = 0;
            for (int i = 0; i < 100; i++) {
                position = journal.append(row("call-" + i)).position();
            }
            assertThat(journal.awaitDurable(position, WAIT)).isTrue();

            assertThat(recorder.snapshot()).isNotEmpty()
                    .allSatisfy(force -> assertThat(force.thread()).isEqualTo("sluice-spend-journal-commit"));
        }
    }

    @Test
    void aCommitWithNothingWrittenSinceTheLastForcesNothing() throws Exception {
        Recorder recorder = new Recorder();
        try (SpendJournal journal = SpendJournal.open(JournalOptions.in(folder, TIME), recorder, JOBS)) {
            long position = journal.append(row("call-1")).position();
            assertThat(journal.awaitDurable(position, WAIT)).isTrue();
            int forces = recorder.snapshot().size();

            assertThat(journal.sync()).isTrue();
            assertThat(recorder.snapshot()).hasSize(forces);

            long next = journal.append(row("call-2")).position();
            assertThat(journal.awaitDurable(next, WAIT)).isTrue();
            assertThat(recorder.snapshot()).hasSizeGreaterThan(forces);
        }
    }

    @Test
    void everySealedSegmentIsForcedThenClosedByTheCommit() throws Exception {
        Recorder recorder = new Recorder();
        try (SpendJournal journal = SpendJournal.open(small(folder, 100), recorder, JOBS)) {
            long position = 0;
            for (int i = 0; i < 30; i++) {
                position = journal.append(row("call-" + i)).position();
            }
            assertThat(journal.awaitDurable(position, WAIT)).isTrue();
            int segments = journal.status().segments();

            List<FileChannel> forced = recorder.snapshot().stream().map(Force::channel).distinct().toList();
            assertThat(segments).isGreaterThanOrEqualTo(3);
            // Each segment's channel, plus the folder's once or more.
            assertThat(forced.size()).isGreaterThanOrEqualTo(segments);
            assertThat(forced.stream().filter(FileChannel::isOpen).count()).as("channels still open").isLessThanOrEqualTo(1);
        }
    }

    @Test
    void aFailedForceLeavesTheRowsNotDurableUntilALaterForceSucceeds() throws Exception {
        Recorder recorder = new Recorder();
        try (SpendJournal journal = SpendJournal.open(JournalOptions.in(folder, TIME), recorder, JOBS)) {
            recorder.failing.set(true);
            long position = journal.append(row("call-1")).position();

            assertThat(journal.sync()).isFalse();
            assertThat(journal.status().durablePosition()).isLessThan(position);

            recorder.failing.set(false);
            assertThat(journal.awaitDurable(position, WAIT)).isTrue();
        }
    }

    @Test
    void closeForcesWhatWasWritten() {
        Recorder recorder = new Recorder();
        SpendJournal journal = SpendJournal.open(JournalOptions.in(folder, TIME), recorder, JOBS);
        long position = journal.append(row("call-1")).position();
        journal.close();

        assertThat(journal.status().durablePosition()).isEqualTo(position);
    }

    @Test
    void theCommitRunsWhenItsIntervalHasPassedOutlivesAFailedRunAndCloseEndsItsThread() throws Exception {
        FakeTime time = new FakeTime();
        JobRestarts restarts = new JobRestarts();
        Duration interval = JournalOptions.DEFAULT_COMMIT_INTERVAL;
        try (FileChannel segment = FileChannel.open(folder.resolve("segment"), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE)) {
            segment.write(ByteBuffer.wrap(new byte[100]));
            AtomicInteger forces = new AtomicInteger();
            ForceHook failingOnce = channel -> {
                if (forces.incrementAndGet() == 1) {
                    throw TestSupervision.outOfMemory();
                }
                channel.force(false);
            };
            GroupCommit commit = new GroupCommit(durable -> durable < 100 ? new GroupCommit.Work(100, segment, List.of(), false)
                    : null, failingOnce, JournalOptions.in(folder, time.source()), 0, time.scheduler(restarts));
            commit.start();
            try {
                time.awaitWaiting(1);
                time.advance(interval.minusNanos(1));
                time.awaitWaiting(1);
                assertThat(forces).as("a nanosecond before the first commit is due").hasValue(0);

                time.advance(Duration.ofNanos(1));
                time.awaitWaiting(1); // the restart's wait, after the commit that failed
                assertThat(forces).hasValue(1);
                assertThat(restarts.of("spend-journal-commit")).isEqualTo(1);
                assertThat(commit.durable()).isZero();

                time.advance(RestartBackoff.DEFAULT.first());
                time.awaitWaiting(1);
                assertThat(forces).as("restarted, the commit waits its interval again").hasValue(1);
                time.advance(interval);
                assertThat(commit.awaitDurable(100, WAIT)).isTrue();
                assertThat(forces).hasValue(2);
            } finally {
                commit.close();
            }
            assertThat(commit.thread().isAlive()).as("the commit thread, after close").isFalse();
        }
    }
}
