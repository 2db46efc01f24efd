package dev.sluice.store;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a spend buffer folder an earlier version of the gateway left: spend rows that had not
 * reached the database when it stopped, as JSON lines ({@link SpendRowJson}) in segment files
 * named {@code segment-<20 digits>.jsonl}, oldest first. Nothing writes this format any more;
 * its rows are read once, handed to the spend journal, and the files deleted.
 *
 * <p>A crash of that version mid-write can have left a torn last line, and any line may be
 * unreadable: each is skipped with a warning, as that version's own reader did, and the rest
 * is read. While open, the folder's {@code buffer.lock} is held, as that version held it, so
 * the folder is never read while a process of that version still writes to it.
 */
public final class LegacySpendBuffer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LegacySpendBuffer.class);
    static final String LOCK_FILE = "buffer.lock";
    private static final String PREFIX = "segment-";
    private static final String SUFFIX = ".jsonl";

    private final Path folder;
    private final List<Path> segments;
    private final FileChannel lockChannel;

    private LegacySpendBuffer(Path folder, List<Path> segments, FileChannel lockChannel) {
        this.folder = folder;
        this.segments = segments;
        this.lockChannel = lockChannel;
    }

    /**
     * Opens the buffer in {@code folder} when the folder holds segment files; empty when it is
     * missing or holds none (then nothing in it is touched).
     *
     * @throws StoreException of reason {@link StoreException.Reason#FAILED FAILED} when the
     *                        folder cannot be read, or a process of the earlier version holds it
     */
    public static Optional<LegacySpendBuffer> open(Path folder) {
        Path absolute = folder.toAbsolutePath().normalize();
        if (!Files.isDirectory(absolute)) {
            return Optional.empty();
        }
        FileChannel lockChannel = null;
        try {
            List<Path> segments = segmentFiles(absolute);
            if (segments.isEmpty()) {
                return Optional.empty();
            }
            lockChannel = FileChannel.open(absolute.resolve(LOCK_FILE), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE);
            if (!tryLock(lockChannel)) {
                throw new StoreException(StoreException.Reason.FAILED, "open spend buffer " + absolute
                        + ": in use by another process (" + LOCK_FILE + " is locked)", null);
            }
            return Optional.of(new LegacySpendBuffer(absolute, segments, lockChannel));
        } catch (IOException e) {
            closeQuietly(lockChannel);
            throw new StoreException(StoreException.Reason.FAILED, "open spend buffer " + absolute + ": " + e, e);
        } catch (RuntimeException e) {
            closeQuietly(lockChannel);
            throw e;
        }
    }

    private static boolean tryLock(FileChannel channel) throws IOException {
        try {
            // Released when the channel closes.
            FileLock lock = channel.tryLock();
            return lock != null;
        } catch (OverlappingFileLockException e) {
            return false;  // held by this process
        }
    }

    private static List<Path> segmentFiles(Path folder) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            return files.filter(LegacySpendBuffer::isSegment).sorted().toList();
        }
    }

    private static boolean isSegment(Path file) {
        String name = file.getFileName().toString();
        return name.startsWith(PREFIX) && name.endsWith(SUFFIX)
                && name.substring(PREFIX.length(), name.length() - SUFFIX.length()).matches("\\d{20}");
    }

    public Path folder() {
        return folder;
    }

    /** The segment files, oldest first. */
    public List<Path> segments() {
        return segments;
    }

    /**
     * Hands every readable row to {@code taker}, oldest first, until it refuses one (returns false).
     *
     * @throws UncheckedIOException when a segment file cannot be read
     */
    public Reading read(Predicate<SpendRow> taker) {
        Reading reading = new Reading(0, 0, true);
        for (Path segment : segments) {
            reading = readSegment(segment, taker, reading);
            if (!reading.complete()) {
                return reading;
            }
        }
        return reading;
    }

    private Reading readSegment(Path segment, Predicate<SpendRow> taker, Reading sofar) {
        long rows = sofar.rows();
        long skipped = sofar.skipped();
        long offset = 0;
        try (InputStream in = new BufferedInputStream(Files.newInputStream(segment))) {
            ByteArrayOutputStream line = new ByteArrayOutputStream(512);
            for (int b = in.read(); b >= 0; b = in.read()) {
                offset++;
                if (b != '\n') {
                    line.write(b);
                    continue;
                }
                try {
                    SpendRow row = SpendRowJson.read(line.toByteArray());
                    if (!taker.test(row)) {
                        return new Reading(rows, skipped, false);
                    }
                    rows++;
                } catch (IOException e) {
                    skipped++;
                    LOG.warn("spend buffer {}: skipping an unreadable line at byte {} of {}: {}", folder,
                            offset - line.size() - 1, segment.getFileName(), firstLine(e.getMessage()));
                }
                line.reset();
            }
            if (line.size() > 0) {
                skipped++;
                LOG.warn("spend buffer {}: skipping a torn last line ({} bytes) of {}, left by a write the process"
                        + " did not finish", folder, line.size(), segment.getFileName());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("read spend buffer " + segment + ": " + e.getMessage(), e);
        }
        return new Reading(rows, skipped, true);
    }

    /** Jackson's messages go on to a second line about where the source was. */
    private static String firstLine(String message) {
        int end = message == null ? -1 : message.indexOf('\n');
        return end < 0 ? String.valueOf(message) : message.substring(0, end);
    }

    /**
     * Deletes the segment files and the lock file, and the folder when nothing else is left in
     * it (a dead-letter file, say, stays for an operator, and the folder with it).
     *
     * @return whether the folder itself was deleted
     * @throws UncheckedIOException when a file cannot be deleted
     */
    public boolean delete() {
        try {
            for (Path segment : segments) {
                Files.deleteIfExists(segment);
            }
            closeQuietly(lockChannel);
            Files.deleteIfExists(folder.resolve(LOCK_FILE));
            try (Stream<Path> left = Files.list(folder)) {
                if (left.findAny().isPresent()) {
                    return false;
                }
            }
            Files.delete(folder);
            return true;
        } catch (IOException e) {
            throw new UncheckedIOException("delete spend buffer " + folder + ": " + e.getMessage(), e);
        }
    }

    /** Releases the folder; its files stay unless {@link #delete} removed them. Idempotent. */
    @Override
    public void close() {
        closeQuietly(lockChannel);
    }

    private static void closeQuietly(AutoCloseable closeable) {
        if (closeable == null) {
            return;
        }
        try {
            closeable.close();
        } catch (Exception e) {
            LOG.debug("closing {}: {}", closeable, e.toString());
        }
    }

    /**
     * How far a {@link #read} got.
     *
     * @param rows     rows the taker took
     * @param skipped  lines skipped as torn or unreadable
     * @param complete false when the taker refused a row, and the rows from it on were not read
     */
    public record Reading(long rows, long skipped, boolean complete) {}
}
