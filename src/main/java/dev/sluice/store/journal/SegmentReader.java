package dev.sluice.store.journal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the frames of one segment at a time through a window of its file, skipping damaged
 * ones. A damaged stretch (a checksum that fails, a length no frame can have, a frame torn
 * off by the end of the file) is stepped over a byte at a time until a frame checks out
 * again, so one bad record never hides the ones after it; each stretch counts as one
 * skipped record and is logged at WARN. Used by one thread at a time.
 */
final class SegmentReader implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SegmentReader.class);
    private static final int WINDOW_BYTES = 1 << 20;

    private Segment segment;
    private FileChannel channel;
    private ByteBuffer window = ByteBuffer.allocate(WINDOW_BYTES);
    private long windowStart;
    private long windowEnd;
    /** Whether the bytes just before the read position were damaged: a stretch counts once. */
    private boolean inDamage;
    /** Whether damaged records are logged: not when peeking at records already reported. */
    private final boolean logDamage;

    SegmentReader(boolean logDamage) {
        this.logDamage = logDamage;
    }

    /** Takes each record read, with the offset just past it in its segment. */
    @FunctionalInterface
    interface RecordSink {
        void accept(RecordCodec.Entry entry, long end);
    }

    /** What one {@link #read} did: records handed on, the offset it stopped at, damaged stretches stepped over. */
    record Chunk(int records, long end, int skipped) {}

    /**
     * Reads records of {@code target} from byte {@code from} up to {@code limit}, at most
     * {@code maxRecords}, handing each to {@code sink}.
     *
     * @throws IOException when the file cannot be read
     */
    Chunk read(Segment target, long from, long limit, int maxRecords, RecordSink sink)
            throws IOException {
        if (target != segment) {
            switchTo(target);
        }
        long position = from;
        int records = 0;
        int skipped = 0;
        while (records < maxRecords && position < limit) {
            Optional<Integer> frame = frameAt(position, limit);
            if (frame.isEmpty()) {
                if (!inDamage) {
                    inDamage = true;
                    skipped++;
                    warn("spend journal: a damaged record in {} at byte {}; skipping it", segment, position);
                }
                position++;
                continue;
            }
            inDamage = false;
            int length = frame.get();
            Optional<RecordCodec.Entry> entry = RecordCodec.decode(
                    window.slice((int) (position - windowStart) + RecordCodec.HEADER_BYTES, length));
            if (entry.isEmpty()) {
                inDamage = true;
                skipped++;
                warn("spend journal: a record in {} at byte {} holds no row; skipping it", segment, position);
                position += RecordCodec.HEADER_BYTES + length;
                continue;
            }
            records++;
            position += RecordCodec.HEADER_BYTES + length;
            sink.accept(entry.get(), position);
        }
        return new Chunk(records, position, skipped);
    }

    private void warn(String message, Segment where, long position) {
        if (logDamage) {
            LOG.warn(message, where, position);
        }
    }

    /** The body length of the intact frame at {@code position}; empty when none starts there. */
    private Optional<Integer> frameAt(long position, long limit) throws IOException {
        if (limit - position < RecordCodec.HEADER_BYTES) {
            return Optional.empty();
        }
        load(position, RecordCodec.HEADER_BYTES, limit);
        int at = (int) (position - windowStart);
        int length = window.getInt(at);
        if (!RecordCodec.plausibleLength(length) || position + RecordCodec.HEADER_BYTES + length > limit) {
            return Optional.empty();
        }
        int checksum = window.getInt(at + 4);
        load(position, RecordCodec.HEADER_BYTES + length, limit);
        at = (int) (position - windowStart);
        if (!RecordCodec.checksumMatches(window, at + RecordCodec.HEADER_BYTES, length, checksum)) {
            return Optional.empty();
        }
        return Optional.of(length);
    }

    /** Makes bytes {@code [position, position + bytes)} of the file readable in the window. */
    private void load(long position, int bytes, long limit) throws IOException {
        if (position >= windowStart && position + bytes <= windowEnd) {
            return;
        }
        int capacity = Math.max(WINDOW_BYTES, bytes);
        if (window.capacity() < capacity) {
            window = ByteBuffer.allocate(capacity);
        }
        int wanted = (int) Math.min(capacity, limit - position);
        window.clear().limit(wanted);
        while (window.hasRemaining()) {
            if (channel.read(window, position + window.position()) < 0) {
                throw new IOException(segment + " ends at byte " + (position + window.position())
                        + ", before the " + limit + " bytes the journal counts");
            }
        }
        windowStart = position;
        windowEnd = position + wanted;
    }

    private void switchTo(Segment target) throws IOException {
        close();
        channel = FileChannel.open(target.file, StandardOpenOption.READ);
        segment = target;
        windowStart = 0;
        windowEnd = 0;
        inDamage = false;
    }

    /** Forgets the segment read last, closing its file, as when it is deleted. */
    @Override
    public void close() {
        segment = null;
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                LOG.debug("spend journal: closing a segment: {}", e.toString());
            }
            channel = null;
        }
    }
}
