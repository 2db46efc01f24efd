package dev.sluice.store.journal;

import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Optional;

/**
 * One file of the journal: records from journal position {@link #base} on, in the order they
 * were appended. Segment files are named by a sequence number padded to twenty digits, so
 * their names sort in the order they were written.
 *
 * <p>{@link #size} grows while the segment is the active one and is final once it is sealed
 * (or was found at open). The active segment's size only ever covers whole frames: it is
 * raised after a frame was written in full.
 */
final class Segment {
    static final String PREFIX = "segment-";
    static final String SUFFIX = ".log";

    final long sequence;
    final Path file;
    final long base;
    /** Found at open, left by an earlier process: its damaged frames were counted then. */
    final boolean recovered;
    /** Bytes written, whole frames only (a recovered segment: the file's size, torn tail included). */
    volatile long size;
    /** Records written, or found intact at open. */
    long records;
    /** The channel appends go to; null once sealed. */
    FileChannel appending;

    Segment(long sequence, Path file, long base, boolean recovered) {
        this.sequence = sequence;
        this.file = file;
        this.base = base;
        this.recovered = recovered;
    }

    long end() {
        return base + size;
    }

    static String name(long sequence) {
        return PREFIX + String.format("%020d", sequence) + SUFFIX;
    }

    /** The sequence number a segment file's name holds; empty when the name is not a segment's. */
    static Optional<Long> sequenceOf(Path file) {
        String name = file.getFileName().toString();
        if (!name.startsWith(PREFIX) || !name.endsWith(SUFFIX)
                || name.length() != PREFIX.length() + 20 + SUFFIX.length()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Long.parseLong(name.substring(PREFIX.length(), PREFIX.length() + 20)));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    @Override
    public String toString() {
        return file.getFileName().toString();
    }
}
