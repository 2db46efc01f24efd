package dev.sluice.store.journal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How far the shipper's acknowledgements reached, kept in {@value #FILE_NAME} beside the
 * segments so that a crash makes the next process ship again only what was read after it,
 * not the whole of the segment it was in: a segment's sequence number and a byte offset into
 * it, every segment before it acknowledged in full.
 *
 * <p>It is written over in place after each acknowledgement, never forced: 20 bytes with a
 * CRC32C, so a torn or stale checkpoint is either ignored (everything left is shipped again)
 * or a little behind (a few batches are shipped again). Both are safe, the sink being
 * idempotent; neither can skip a record not acknowledged. A checkpoint past the end of a
 * segment that lost its tail to a power loss means those records were acknowledged, so
 * nothing of the segment is pending.
 */
final class AckCheckpoint implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AckCheckpoint.class);
    static final String FILE_NAME = "journal.acked";
    private static final int BYTES = 8 + 8 + 4;

    private final Path file;
    private final ByteBuffer buffer = ByteBuffer.allocate(BYTES);
    private FileChannel channel;
    private boolean failureLogged;

    /** A place in the journal: byte {@code offset} of the segment numbered {@code sequence}. */
    record Mark(long sequence, long offset) {}

    AckCheckpoint(Path folder) {
        this.file = folder.resolve(FILE_NAME);
    }

    /** The last checkpoint written; empty when there is none or it does not check out. */
    static Optional<Mark> read(Path folder) {
        Path file = folder.resolve(FILE_NAME);
        try {
            if (!Files.exists(file)) {
                return Optional.empty();
            }
            ByteBuffer in = ByteBuffer.wrap(Files.readAllBytes(file));
            if (in.remaining() < BYTES) {
                return Optional.empty();
            }
            long sequence = in.getLong(0);
            long offset = in.getLong(8);
            if (checksum(in) != in.getInt(16) || sequence < 0 || offset < 0) {
                LOG.warn("spend journal {}: the acknowledgement checkpoint is damaged; shipping every segment whole",
                        folder);
                return Optional.empty();
            }
            return Optional.of(new Mark(sequence, offset));
        } catch (IOException e) {
            LOG.warn("spend journal {}: cannot read the acknowledgement checkpoint ({}); shipping every segment whole",
                    folder, e.toString());
            return Optional.empty();
        }
    }

    private static int checksum(ByteBuffer checkpoint) {
        CRC32C crc = new CRC32C();
        crc.update(checkpoint.slice(0, 16));
        return (int) crc.getValue();
    }

    /** Writes the mark over the last one; a failure is logged once and only costs shipping again after a crash. */
    void write(Mark mark) {
        buffer.clear();
        buffer.putLong(0, mark.sequence()).putLong(8, mark.offset()).putInt(16, checksum(buffer));
        try {
            if (channel == null) {
                channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            }
            while (buffer.hasRemaining()) {
                channel.write(buffer, buffer.position());
            }
            failureLogged = false;
        } catch (IOException e) {
            if (!failureLogged) {
                failureLogged = true;
                LOG.warn("spend journal: cannot write {} ({}); a crash would ship more rows again", file, e.toString());
            }
        }
    }

    @Override
    public void close() {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                LOG.debug("spend journal: closing {}: {}", file, e.toString());
            }
            channel = null;
        }
    }
}
