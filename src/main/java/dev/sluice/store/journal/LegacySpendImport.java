package dev.sluice.store.journal;

import dev.sluice.store.LegacySpendBuffer;
import dev.sluice.store.SpendRow;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves the rows of a spend buffer an earlier version left ({@link LegacySpendBuffer}) into
 * the spend journal, at open, so that the journal's shipper posts them with its own.
 *
 * <p>The buffer's files are deleted only once every row is in the journal and forced to the
 * disk. A journal that refuses a row (at its bound, or its disk failing) stops the import,
 * and the buffer is left whole for the next start; so is one whose files cannot be deleted.
 * An import made again takes no call twice: it passes over the calls it finds pending in the
 * journal (a crash came between the import and the deletion, before any shipping) and those
 * {@link ImportedLegacyCalls} lists (imported before and perhaps shipped since), as the
 * embedded store's ledger tells a row shipped twice by its place in the journal, not by its
 * call id.
 */
final class LegacySpendImport {
    private static final Logger LOG = LoggerFactory.getLogger(LegacySpendImport.class);

    private LegacySpendImport() {}

    /**
     * Imports the rows of the buffer in {@code folder}, when it holds any, into {@code journal}.
     *
     * @return the rows imported; 0 when there was no buffer, or it was left in place
     * @throws dev.sluice.store.StoreException when the buffer cannot be opened
     * @throws UncheckedIOException            when a segment file cannot be read, or the journal
     *                                         cannot force the rows it took to the disk
     */
    static long run(Path folder, SpendJournal journal) {
        ImportedLegacyCalls imported = new ImportedLegacyCalls(journal.options().folder());
        Optional<LegacySpendBuffer> found = LegacySpendBuffer.open(folder);
        if (found.isEmpty()) {
            imported.delete();
            return 0;
        }
        try (LegacySpendBuffer legacy = found.get()) {
            Set<String> known = imported.read();
            known.addAll(journal.reader.pendingCallIds());
            List<String> taken = new ArrayList<>();
            LegacySpendBuffer.Reading reading = legacy.read(row -> {
                if (known.contains(row.callId())) {
                    return true;
                }
                boolean accepted = taken(journal, row, legacy.folder());
                if (accepted) {
                    taken.add(row.callId());
                    known.add(row.callId());
                }
                return accepted;
            });
            if (!journal.sync()) {
                // The rows taken may ship in this run yet not be listed: an import next time
                // would take them again. Better not to start than to count them twice.
                throw new UncheckedIOException("spend buffer " + legacy.folder() + ": the spend journal "
                        + journal.options().folder() + " could not force its rows to the disk",
                        new IOException("journal sync failed"));
            }
            imported.add(taken);
            if (!reading.complete()) {
                LOG.error("spend.legacy_buffer_not_imported folder={} rows_taken={}: the spend journal {} refused a row "
                        + "(its status: {}); the folder is left whole and imported again at the next start",
                        legacy.folder(), reading.rows(), journal.options().folder(), journal.status());
                return 0;
            }
            // From here until the files are gone a crash imports them again: harmless, as the
            // calls are listed as imported.
            boolean folderGone = delete(legacy);
            LOG.info("spend.legacy_buffer_imported folder={} rows={} skipped_lines={} into {}{}", legacy.folder(),
                    reading.rows(), reading.skipped(), journal.options().folder(),
                    folderGone ? "" : "; the folder is kept for the other files in it");
            return reading.rows();
        }
    }

    private static boolean taken(SpendJournal journal, SpendRow row, Path folder) {
        try {
            return journal.append(row).accepted();
        } catch (IllegalArgumentException e) {
            // Too large for a journal record: keep it where it is rather than drop it.
            LOG.error("spend buffer {}: call {} cannot be journaled ({})", folder, row.callId(), e.getMessage());
            return false;
        }
    }

    /** Deletes the imported files; whether the folder went with them. A failure is logged, not thrown: the rows are safe. */
    private static boolean delete(LegacySpendBuffer legacy) {
        try {
            return legacy.delete();
        } catch (UncheckedIOException e) {
            LOG.error("spend buffer {}: its rows are in the spend journal, but its files cannot be deleted ({}); the "
                    + "next start passes over them, as they are listed as imported", legacy.folder(), e.getMessage());
            return false;
        }
    }
}
