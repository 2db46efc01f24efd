package dev.sluice.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Spend rows that have not reached the database yet, kept on disk in one folder, bounded
 * in bytes. The {@link SpendWriter} appends a batch here when the database cannot be
 * reached and posts the rows back, oldest first, when it returns; a new process opening
 * the same folder finds what the last one left.
 *
 * <h2>Design notes</h2>
 * <p><b>Segments.</b> Rows are JSON lines ({@link SpendRowJson}) in append-only files,
 * {@code segment-<n>.jsonl}, numbered in the order they were started. Appends go to the
 * newest segment, which is sealed (takes no more appends) when it reaches a sixteenth of
 * the bound, when it is first read from, and when the buffer is closed; a reopened buffer
 * starts a new one. So a segment being read never grows, and it is deleted once every row
 * in it was posted. A file cannot be cut at its front, so how far the oldest segment has
 * been posted is kept in memory only: after a restart its rows are read, and posted, again.
 * That is safe because the ledger is idempotent by call id, and it is the only way to be
 * sure that a crash between a post and its removal from here replays the rows rather than
 * loses them.
 *
 * <p><b>Durability.</b> An append returns once its bytes are forced to the disk
 * ({@code fsync}). A crash mid-append can leave a torn last line; reading skips it with a
 * warning, as it skips any line it cannot read, rather than stop the replay. A failed
 * append is cut off the file, so the next append never continues a torn line.
 *
 * <p><b>The bound.</b> {@link #bytes()} counts whole segment files, posted parts of the
 * oldest included, until each is deleted. {@link #append} refuses a batch that would take
 * it past {@link #maxBytes()}; {@link #appendPastBound} is for the writer's close, when the
 * rows have nowhere else to go.
 *
 * <p>A folder is used by one buffer at a time: {@link #open} locks {@code buffer.lock} in it
 * and fails when another process, or another buffer in this one, holds the lock. Methods are
 * safe to call from any thread; {@link #rows()} and {@link #bytes()} never wait.
 */
public final class SpendBuffer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SpendBuffer.class);

    /** Where the gateway keeps the buffer by default: beside the embedded store's file. */
    public static final Path DEFAULT_FOLDER = Path.of("sluice-data", "spend-buffer");
    /** 256 MiB: about 800 000 rows, hours of a busy gateway's calls. */
    public static final long DEFAULT_MAX_BYTES = 256L * 1024 * 1024;

    private static final long MAX_SEGMENT_BYTES = 16L * 1024 * 1024;
    private static final String LOCK_FILE = "buffer.lock";

    private final Path folder;
    private final long maxBytes;
    private final long segmentBytes;
    private final FileChannel lockChannel;
    private final FileLock lock;
    /** Oldest first; guarded by this. */
    private final ArrayDeque<SpendSegment> segments;
    private long nextSegment;
    /** The newest segment's file while it takes appends; null once sealed. Guarded by this. */
    private FileChannel appending;
    private boolean closed;
    /** Replaced whole, so a reader never sees the rows of one moment with the bytes of another. */
    private volatile Totals totals;

    private SpendBuffer(Path folder, long maxBytes, FileChannel lockChannel, FileLock lock, ArrayDeque<SpendSegment> segments,
            long nextSegment) {
        this.folder = folder;
        this.maxBytes = maxBytes;
        this.segmentBytes = Math.max(1, Math.min(MAX_SEGMENT_BYTES, maxBytes / 16));
        this.lockChannel = lockChannel;
        this.lock = lock;
        this.segments = segments;
        this.nextSegment = nextSegment;
        long rows = 0;
        long bytes = 0;
        for (SpendSegment segment : segments) {
            rows += segment.lines;
            bytes += segment.size;
        }
        this.totals = new Totals(rows, bytes);
    }

    /**
     * Opens the buffer in {@code folder}, creating the folder when missing, with the rows
     * a previous process left there.
     *
     * @param maxBytes the most the segment files may hold together
     * @throws StoreException of reason {@link StoreException.Reason#FAILED FAILED} when the
     *                        folder cannot be created or read, or another buffer uses it
     */
    public static SpendBuffer open(Path folder, long maxBytes) {
        Objects.requireNonNull(folder, "folder");
        if (maxBytes < 1) {
            throw new IllegalArgumentException("maxBytes: " + maxBytes + " (expected: >= 1)");
        }
        Path absolute = folder.toAbsolutePath().normalize();
        FileChannel lockChannel = null;
        try {
            Files.createDirectories(absolute);
            lockChannel = FileChannel.open(absolute.resolve(LOCK_FILE), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock = tryLock(lockChannel);
            if (lock == null) {
                throw new StoreException(StoreException.Reason.FAILED, "open spend buffer " + absolute
                        + ": in use by another buffer (" + LOCK_FILE + " is locked)", null);
            }
            ArrayDeque<SpendSegment> segments = new ArrayDeque<>();
            long next = 0;
            for (Path file : SpendSegment.files(absolute)) {
                next = Math.max(next, SpendSegment.number(file) + 1);
                long size = Files.size(file);
                if (size == 0) {
                    Files.delete(file);
                } else {
                    segments.addLast(new SpendSegment(file, size, SpendSegment.countLines(file)));
                }
            }
            SpendBuffer buffer = new SpendBuffer(absolute, maxBytes, lockChannel, lock, segments, next);
            if (buffer.rows() > 0) {
                LOG.info("spend buffer {}: {} row(s) in {} segment(s) left by an earlier run, to post", absolute,
                        buffer.rows(), segments.size());
            }
            return buffer;
        } catch (IOException e) {
            closeQuietly(lockChannel);
            throw new StoreException(StoreException.Reason.FAILED, "open spend buffer " + absolute + ": " + e, e);
        } catch (RuntimeException e) {
            closeQuietly(lockChannel);
            throw e;
        }
    }

    private static FileLock tryLock(FileChannel channel) throws IOException {
        try {
            return channel.tryLock();
        } catch (OverlappingFileLockException e) {
            return null;  // held by another buffer in this process
        }
    }

    public Path folder() {
        return folder;
    }

    public long maxBytes() {
        return maxBytes;
    }

    /** Rows not yet posted, counted as complete lines (an unreadable one is counted until it is skipped). */
    public long rows() {
        return totals.rows();
    }

    /** Bytes in the segment files. */
    public long bytes() {
        return totals.bytes();
    }

    /** {@link #rows()} and {@link #bytes()} of the same moment. */
    Totals totals() {
        return totals;
    }

    /** True when no segment holds anything, not even a line that cannot be read. */
    public boolean isEmpty() {
        return totals.bytes() == 0;
    }

    /**
     * Adds the rows after every row already here, and forces them to the disk.
     *
     * @return false, changing nothing, when they would take the buffer past {@link #maxBytes()}
     * @throws UncheckedIOException when the disk refused the write; nothing of it is kept
     */
    synchronized boolean append(List<SpendRow> batch) {
        byte[] data = SpendRowJson.lines(batch);
        if (totals.bytes() + data.length > maxBytes) {
            return false;
        }
        write(data, batch.size());
        return true;
    }

    /**
     * As {@link #append}, whatever the bound: for rows that would otherwise be lost, when the
     * writer closes while the database is down and the buffer is full.
     */
    synchronized void appendPastBound(List<SpendRow> batch) {
        write(SpendRowJson.lines(batch), batch.size());
    }

    private void write(byte[] data, int lines) {
        checkOpen();
        if (data.length == 0) {
            return;
        }
        try {
            if (appending == null) {
                startSegment();
            }
            SpendSegment newest = segments.getLast();
            try {
                ByteBuffer remaining = ByteBuffer.wrap(data);
                while (remaining.hasRemaining()) {
                    appending.write(remaining);
                }
                appending.force(false);
            } catch (IOException e) {
                // Cut off what part of the batch was written, so no torn line stays for the
                // next append to continue; that append starts a new segment.
                try {
                    appending.truncate(newest.size);
                } catch (IOException cut) {
                    e.addSuppressed(cut);
                }
                seal();
                throw e;
            }
            newest.size += data.length;
            newest.lines += lines;
            totals = totals.plus(lines, data.length);
            if (newest.size >= segmentBytes) {
                seal();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("append to spend buffer " + folder + ": " + e.getMessage(), e);
        }
    }

    private void startSegment() throws IOException {
        Path file = folder.resolve(SpendSegment.name(nextSegment++));
        appending = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
        segments.addLast(new SpendSegment(file, 0, 0));
        syncFolder();
    }

    /** Makes a new file's name durable; on systems that cannot open a folder the file system journals it. */
    private void syncFolder() {
        try (FileChannel directory = FileChannel.open(folder, StandardOpenOption.READ)) {
            directory.force(true);
        } catch (IOException e) {
            LOG.debug("spend buffer {}: cannot force the folder ({})", folder, e.toString());
        }
    }

    private void seal() {
        closeQuietly(appending);
        appending = null;
    }

    /**
     * Reads up to {@code maxRows} lines from the oldest segment, from where the last
     * {@link #remove} left it; lines that cannot be read are skipped, with a warning, and
     * count as read. Nothing changes until the chunk is {@link #remove removed}: reading
     * again returns the same rows.
     *
     * @return {@link Chunk#NONE} when the buffer is empty
     * @throws UncheckedIOException when the segment cannot be read
     */
    synchronized Chunk oldest(int maxRows) {
        checkOpen();
        while (!segments.isEmpty()) {
            SpendSegment first = segments.getFirst();
            if (first == segments.getLast() && appending != null) {
                seal();
            }
            if (first.readOffset < first.size) {
                return first.read(maxRows, folder);
            }
            delete(first);
        }
        return Chunk.NONE;
    }

    /**
     * Forgets a chunk whose rows were posted: the oldest segment's file is deleted once all
     * its rows are.
     *
     * @throws IllegalStateException when the chunk is not the one {@link #oldest} returns now
     */
    synchronized void remove(Chunk chunk) {
        checkOpen();
        if (chunk == Chunk.NONE) {
            return;
        }
        SpendSegment first = segments.peekFirst();
        if (first == null || !first.file.equals(chunk.segment()) || first.readOffset != chunk.start()) {
            throw new IllegalStateException("spend buffer " + folder + ": the chunk at byte " + chunk.start() + " of "
                    + chunk.segment().getFileName() + " is not the oldest");
        }
        first.readOffset = chunk.end();
        if (first.readOffset >= first.size) {
            delete(first);
        } else {
            first.linesRead += chunk.lines();
            totals = totals.plus(-chunk.lines(), 0);
        }
    }

    /** Deletes the oldest segment, with its rows not yet counted as read. */
    private void delete(SpendSegment segment) {
        try {
            Files.deleteIfExists(segment.file);
        } catch (IOException e) {
            throw new UncheckedIOException("delete spend buffer segment " + segment.file + ": " + e.getMessage(), e);
        }
        segments.removeFirst();
        totals = totals.plus(-(segment.lines - segment.linesRead), -segment.size);
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("spend buffer " + folder + " is closed");
        }
    }

    /** Seals the newest segment and releases the folder; what is here stays for the next open. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        seal();
        try {
            lock.release();
        } catch (IOException e) {
            LOG.debug("spend buffer {}: releasing the lock: {}", folder, e.toString());
        }
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
     * Rows read from the oldest segment, and where they lie in it: {@code lines} lines from
     * byte {@code start} to byte {@code end}, unreadable ones included.
     */
    record Chunk(List<SpendRow> rows, int lines, Path segment, long start, long end) {
        static final Chunk NONE = new Chunk(List.of(), 0, Path.of(""), 0, 0);
    }

    /** Rows not yet posted and bytes in the segment files, as of one moment. */
    record Totals(long rows, long bytes) {
        Totals plus(long moreRows, long moreBytes) {
            return new Totals(rows + moreRows, bytes + moreBytes);
        }
    }

}
