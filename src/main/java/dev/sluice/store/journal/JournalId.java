package dev.sluice.store.journal;

import dev.sluice.store.JournalMark;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * A journal folder's identity, kept in {@value #FILE_NAME}: a random UUID. A sink that logs how
 * far a journal's rows are ({@link dev.sluice.store.JournalMark}) keys it by this id, so that a
 * folder emptied or replaced, whose segment numbers may start over, is never taken for the one
 * before it. An open that finds no segment left (nothing pending, nothing to ship again) makes
 * a new one, so a journal whose checkpoint was lost with its last segment starts afresh too.
 */
record JournalId(String value, long firstNewSegment) {
    static final String FILE_NAME = "journal.id";
    private static final Pattern UUID_TEXT = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

    /**
     * Whether a sink's mark can be one of this journal's: its id, and a segment an earlier
     * process wrote ({@code firstNewSegment} is the first this one makes, which no sink has yet).
     */
    boolean mayHaveShipped(JournalMark mark) {
        return mark.journal().equals(value) && mark.segment() < firstNewSegment;
    }

    /**
     * The folder's id; made and written to the disk (whole or not at all) when it has none, or
     * when {@code renew} asks for a new one.
     */
    static JournalId of(Path folder, boolean renew, long firstNewSegment) {
        Path file = folder.resolve(FILE_NAME);
        try {
            if (!renew && Files.exists(file)) {
                String id = Files.readString(file, StandardCharsets.UTF_8).strip();
                if (UUID_TEXT.matcher(id).matches()) {
                    return new JournalId(id, firstNewSegment);
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
            Files.move(draft, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            // A power loss must not bring back an id rows were shipped under no longer.
            SegmentFiles.forceFolder(folder, ForceHook.DISK);
            return new JournalId(id, firstNewSegment);
        } catch (IOException e) {
            throw new UncheckedIOException("spend journal " + folder + ": read or make " + FILE_NAME + ": "
                    + e.getMessage(), e);
        }
    }
}
