package dev.sluice.store.journal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * A journal folder's identity, kept in {@value #FILE_NAME}: a random UUID made when the
 * folder is first opened. A sink that logs how far a journal's rows are
 * ({@link dev.sluice.store.JournalMark}) keys it by this id, so that a folder emptied or
 * replaced, whose segment numbers start over, is never taken for the one before it.
 */
final class JournalId {
    static final String FILE_NAME = "journal.id";
    private static final Pattern UUID_TEXT = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

    private JournalId() {}

    /** The folder's id, made and written to the disk (whole or not at all) when it has none. */
    static String of(Path folder) {
        Path file = folder.resolve(FILE_NAME);
        try {
            if (Files.exists(file)) {
                String id = Files.readString(file, StandardCharsets.UTF_8).strip();
                if (UUID_TEXT.matcher(id).matches()) {
                    return id;
                }
                throw new IllegalStateException("spend journal " + folder + ": " + FILE_NAME + " holds no id ('"
                        + id + "'); it belongs to the journal's segments and must not be edited");
            }
            String id = UUID.randomUUID().toString();
            Path draft = folder.resolve(FILE_NAME + ".new");
            Files.writeString(draft, id + "\n", StandardCharsets.UTF_8);
            try (FileChannel channel = FileChannel.open(draft, StandardOpenOption.WRITE)) {
                channel.force(true);
            }
            Files.move(draft, file, StandardCopyOption.ATOMIC_MOVE);
            return id;
        } catch (IOException e) {
            throw new UncheckedIOException("spend journal " + folder + ": read or make " + FILE_NAME + ": "
                    + e.getMessage(), e);
        }
    }
}
