package dev.sluice.store.journal;

import static dev.sluice.store.journal.JournalFixtures.TIME;
import static dev.sluice.store.journal.JournalFixtures.JOBS;
import static dev.sluice.store.journal.JournalFixtures.row;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipper is handed only records the group commit forced to the disk: a row the store
 * logged must not be lost from the journal to a power loss, or a segment made anew after it
 * would reuse its place.
 */
class ForcedBeforeShippedTest {
    @TempDir
    Path folder;

    private volatile boolean diskFails = true;

    @Test
    void recordsNotYetForcedAreNotReadAndAreOnceTheyAre() {
        ForceHook hook = channel -> {
            if (diskFails) {
                throw new IOException("disk full");
            }
            channel.force(false);
        };
        try (SpendJournal journal = SpendJournal.open(JournalOptions.in(folder, TIME), hook, JOBS)) {
            journal.append(row("call-1"));
            journal.append(row("call-2"));

            assertThat(journal.sync()).isFalse();
            assertThat(journal.read(10).rows()).as("written, not forced").isEmpty();

            diskFails = false;
            assertThat(journal.sync()).isTrue();
            assertThat(journal.read(10).rows()).extracting(row -> row.callId()).containsExactly("call-1", "call-2");
        }
    }
}
