package dev.sluice.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Spend rows the database refused on their own (a value it cannot store), kept so that no
 * accepted row is dropped and one bad row never blocks the rest: one JSON line each in
 * {@value #FILE_NAME}, in the spend journal's folder, with the spend
 * log's column names (the cost as a decimal string, the start time as ISO-8601) and the
 * refusal in {@code error}. An operator reads them, fixes the cause, and posts them by hand.
 * The file is not bounded: a row lands here only when the database refused it alone, which
 * should not happen at all.
 *
 * <p>A row refused again (after a restart replayed it, or when the database went away before
 * the rest of its batch landed and the batch was posted again) is added again.
 */
public final class DeadLetters {
    private static final Logger LOG = LoggerFactory.getLogger(DeadLetters.class);

    public static final String FILE_NAME = "dead-letters.jsonl";

    private final Path file;
    private final AtomicLong added = new AtomicLong();

    DeadLetters(Path file) {
        this.file = file;
    }

    /** The dead letters of the spend rows kept in {@code folder}. */
    public static DeadLetters in(Path folder) {
        return new DeadLetters(folder.resolve(FILE_NAME));
    }

    public Path file() {
        return file;
    }

    /** Rows added since this was made. */
    public long added() {
        return added.get();
    }

    /**
     * Appends the row with its reason and forces it to the disk. When even that fails the
     * row is logged whole, at ERROR, the last place it can be kept.
     */
    public synchronized void add(SpendRow row, String reason) {
        byte[] line = SpendRowJson.line(SpendRowJson.node(row).put("error", reason));
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND)) {
            ByteBuffer remaining = ByteBuffer.wrap(line);
            while (remaining.hasRemaining()) {
                out.write(remaining);
            }
            out.force(false);
        } catch (IOException e) {
            LOG.error("spend: cannot write call {} to {} ({}); the row: {}", row.callId(), file, e.toString(),
                    new String(line, StandardCharsets.UTF_8).strip());
        }
        added.incrementAndGet();
    }
}
