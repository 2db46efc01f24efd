package dev.sluice.store.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A new segment is never numbered as one an earlier process wrote: a sink keeps how far it
 * logged a journal by segment number, and a reused number would pass its new rows for logged.
 */
class SegmentNumbersTest {
    @TempDir
    Path folder;

    private long nextAfter(AckCheckpoint.Mark acknowledged) {
        try (AckCheckpoint checkpoint = new AckCheckpoint(folder)) {
            checkpoint.write(acknowledged);
        }
        return SegmentFiles.recover(folder).nextSequence();
    }

    @Test
    void aCheckpointInsideASegmentNoLongerOnDiskNumbersTheNextPastIt() {
        assertThat(nextAfter(new AckCheckpoint.Mark(3, 100))).isEqualTo(4);
    }

    @Test
    void aCheckpointAtTheStartOfASegmentNotYetMadeLeavesItsNumberFree() {
        assertThat(nextAfter(new AckCheckpoint.Mark(3, 0))).isEqualTo(3);
    }

    @Test
    void withNoCheckpointAndNoSegmentNumberingStartsAtZero() {
        assertThat(SegmentFiles.recover(folder).nextSequence()).isZero();
    }
}
