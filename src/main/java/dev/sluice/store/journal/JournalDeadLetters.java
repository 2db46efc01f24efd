package dev.sluice.store.journal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.json.Json;
import dev.sluice.store.SpendRow;
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
 * Rows the sink refused on their own (a value the database cannot store), kept so that one
 * bad row never blocks the journal: one JSON line each in {@value #FILE_NAME} in the
 * journal's folder, with the spend log's column names (the cost as a decimal string, the
 * start time as ISO-8601) and the refusal in {@code error}. An operator reads them, fixes the
 * cause and posts them by hand. A row refused again is added again: after a restart, or when
 * the sink became unreachable before the rest of its batch landed and the batch was retried.
 */
final class JournalDeadLetters {
    private static final Logger LOG = LoggerFactory.getLogger(JournalDeadLetters.class);
    static final String FILE_NAME = "dead-letters.jsonl";

    private final Path file;
    private final AtomicLong added = new AtomicLong();

    JournalDeadLetters(Path folder) {
        this.file = folder.resolve(FILE_NAME);
    }

    Path file() {
        return file;
    }

    long added() {
        return added.get();
    }

    /** Appends the row and why it was refused, forced to the disk; failing that, logs the row whole at ERROR. */
    synchronized void add(SpendRow row, String reason) {
        byte[] line = line(row, reason);
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND)) {
            ByteBuffer remaining = ByteBuffer.wrap(line);
            while (remaining.hasRemaining()) {
                out.write(remaining);
            }
            out.force(false);
        } catch (IOException e) {
            LOG.error("spend journal: cannot write call {} to {} ({}); the row: {}", row.callId(), file, e.toString(),
                    new String(line, StandardCharsets.UTF_8).strip());
        }
        added.incrementAndGet();
    }

    static byte[] line(SpendRow row, String reason) {
        ObjectNode node = Json.MAPPER.createObjectNode();
        node.put("call_id", row.callId());
        row.keyHash().ifPresent(value -> node.put("key_hash", value));
        row.teamId().ifPresent(value -> node.put("team_id", value));
        row.userId().ifPresent(value -> node.put("user_id", value));
        node.put("model_group", row.modelGroup());
        row.deploymentId().ifPresent(value -> node.put("deployment_id", value));
        node.put("prompt_tokens", row.promptTokens());
        node.put("completion_tokens", row.completionTokens());
        node.put("total_tokens", row.totalTokens());
        node.put("cost", row.cost().toPlainString());
        node.put("status", row.status());
        node.put("duration_ms", row.durationMs());
        node.put("started_at", row.startedAt().toString());
        node.put("error", reason);
        byte[] json = Json.bytes(node);
        byte[] line = new byte[json.length + 1];
        System.arraycopy(json, 0, line, 0, json.length);
        line[json.length] = '\n';
        return line;
    }
}
