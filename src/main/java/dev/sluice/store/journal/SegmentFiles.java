package dev.sluice.store.journal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The journal's folder: its lock, which keeps a second process (or a second journal in this
 * one) from appending to the same segments, and the segment files an earlier process left,
 * read through once at open to count their intact records and skip their damaged ones.
 */
final class SegmentFiles {
    private static final Logger LOG = LoggerFactory.getLogger(SegmentFiles.class);
    static final String LOCK_FILE = "journal.lock";

    private SegmentFiles() {}

    /** The held lock of a journal's folder. */
    record Lock(FileChannel channel, FileLock lock) implements AutoCloseable {
        @Override
        public void close() {
            try {
                lock.release();
            } catch (IOException e) {
                LOG.debug("spend journal: releasing the lock: {}", e.toString());
            }
            try {
                channel.close();
            } catch (IOException e) {
                LOG.debug("spend journal: closing the lock file: {}", e.toString());
            }
        }
    }

    /**
     * Takes the folder, creating it when missing.
     *
     * @throws IllegalStateException when another journal holds it
     * @throws UncheckedIOException  when it cannot be made or locked
     */
    static Lock lock(Path folder) {
        try {
            Files.createDirectories(folder);
            FileChannel channel = FileChannel.open(folder.resolve(LOCK_FILE), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE);
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null;
            }
            if (lock == null) {
                channel.close();
                throw new IllegalStateException("spend journal " + folder + ": another journal has the folder open");
            }
            return new Lock(channel, lock);
        } catch (IOException e) {
            throw new UncheckedIOException("open spend journal " + folder + ": " + e.getMessage(), e);
        }
    }

    /**
     * What {@link #recover} found: the segments kept, laid end to end from journal position 0,
     * and where in the first of them the records not yet acknowledged start.
     */
    record Recovered(List<Segment> segments, long start, long records, long skipped, long nextSequence) {}

    /**
     * Reads the segments an earlier process left, oldest first, counting the records after its
     * last {@link AckCheckpoint checkpoint}. Segments acknowledged in full, and empty ones (made
     * just before a crash), are deleted.
     */
    static Recovered recover(Path folder) {
        Optional<AckCheckpoint.Mark> acked = AckCheckpoint.read(folder);
        List<Segment> segments = new ArrayList<>();
        long start = 0;
        long position = 0;
        long records = 0;
        long skipped = 0;
        // A checkpoint inside a segment means that segment was written: never number a new one so.
        long nextSequence = acked.map(mark -> mark.offset() > 0 ? mark.sequence() + 1 : mark.sequence()).orElse(0L);
        try (SegmentReader reader = new SegmentReader(true)) {
            for (Path file : segmentFiles(folder)) {
                long sequence = Segment.sequenceOf(file).orElseThrow();
                nextSequence = Math.max(nextSequence, sequence + 1);
                long size = Files.size(file);
                long from = acked.filter(mark -> mark.sequence() == sequence)
                        .map(mark -> Math.min(mark.offset(), size)).orElse(0L);
                boolean acknowledged = acked.isPresent() && sequence < acked.get().sequence();
                if (size == 0 || acknowledged || from == size) {
                    Files.delete(file);
                    continue;
                }
                if (segments.isEmpty()) {
                    start = from;
                }
                Segment segment = new Segment(sequence, file, position, true);
                segment.size = size;
                SegmentReader.Chunk chunk = reader.read(segment, from, size, Integer.MAX_VALUE, (entry, end) -> {});
                segment.records = chunk.records();
                records += chunk.records();
                skipped += chunk.skipped();
                segments.add(segment);
                position += size;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("replay spend journal " + folder + ": " + e.getMessage(), e);
        }
        return new Recovered(segments, start, records, skipped, nextSequence);
    }

    private static List<Path> segmentFiles(Path folder) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            return files.filter(file -> Segment.sequenceOf(file).isPresent()).sorted().toList();
        }
    }

    /**
     * Forces the folder's entries (a new file's name) to the disk through {@code hook}. Systems
     * that cannot open a folder journal file names themselves: a failure is logged at DEBUG.
     */
    static void forceFolder(Path folder, ForceHook hook) {
        try (FileChannel directory = FileChannel.open(folder, StandardOpenOption.READ)) {
            hook.force(directory);
        } catch (IOException e) {
            LOG.debug("spend journal {}: cannot force the folder ({})", folder, e.toString());
        }
    }

    /** Makes the file of a new segment; its name reaches the disk with the next group commit. */
    static FileChannel create(Path file) throws IOException {
        return FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    }

    /** Deletes an acknowledged segment's file. */
    static void delete(Segment segment) {
        try {
            Files.deleteIfExists(segment.file);
        } catch (IOException e) {
            throw new UncheckedIOException("delete spend journal segment " + segment.file + ": " + e.getMessage(), e);
        }
    }
}
