package dev.sluice.store.journal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;

/**
 * The call ids of rows a {@link LegacySpendImport} put into the journal, one per line in
 * {@value #FILE_NAME} beside its segments, forced to the disk once those rows are: so that
 * an import made again (its folder could not be deleted, or the journal refused a row midway
 * and the rows it took have shipped since) takes no call twice, whether the journal still
 * holds the row or has shipped it. Deleted at a start that finds no legacy folder.
 */
final class ImportedLegacyCalls {
    static final String FILE_NAME = "legacy-imported-calls";

    private final Path file;

    ImportedLegacyCalls(Path journalFolder) {
        this.file = journalFolder.resolve(FILE_NAME);
    }

    /** The calls imported so far; a torn last line is a call whose rows were forced, then imported again: harmless. */
    Set<String> read() {
        try {
            return Files.exists(file) ? new HashSet<>(Files.readAllLines(file, StandardCharsets.UTF_8)) : new HashSet<>();
        } catch (IOException e) {
            throw new UncheckedIOException("read " + file + ": " + e.getMessage(), e);
        }
    }

    /** Adds {@code callIds}, forced to the disk before this returns. */
    void add(Collection<String> callIds) {
        if (callIds.isEmpty()) {
            return;
        }
        StringBuilder lines = new StringBuilder();
        callIds.forEach(id -> lines.append(id).append('\n'));
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND)) {
            ByteBuffer bytes = ByteBuffer.wrap(lines.toString().getBytes(StandardCharsets.UTF_8));
            while (bytes.hasRemaining()) {
                channel.write(bytes);
            }
            channel.force(true);
        } catch (IOException e) {
            throw new UncheckedIOException("write " + file + ": " + e.getMessage(), e);
        }
    }

    void delete() {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new UncheckedIOException("delete " + file + ": " + e.getMessage(), e);
        }
    }
}
