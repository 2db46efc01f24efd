package dev.sluice.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;

/**
 * {@code sluice_spend_marks}: how far each spend journal's rows are logged in the embedded
 * store, kept in the transaction that logs them, so that what is logged and the mark never
 * disagree. Work on a connection the caller holds, in its transaction.
 */
final class SpendMarks {
    private SpendMarks() {}

    static Optional<JournalMark> of(Connection connection, String journal) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(
                "SELECT segment, segment_offset FROM sluice_spend_marks WHERE journal_id = ?")) {
            statement.setString(1, journal);
            try (ResultSet row = statement.executeQuery()) {
                return row.next() ? Optional.of(new JournalMark(journal, row.getLong(1), row.getLong(2)))
                        : Optional.empty();
            }
        }
    }

    /** Moves the journal's mark to {@code mark} (H2's MERGE: the embedded store's own statement). */
    static void set(Connection connection, JournalMark mark, Instant now) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("MERGE INTO sluice_spend_marks "
                + "(journal_id, segment, segment_offset, updated_at) KEY (journal_id) VALUES (?, ?, ?, ?)")) {
            statement.setString(1, mark.journal());
            statement.setLong(2, mark.segment());
            statement.setLong(3, mark.offset());
            Columns.time(statement, 4, now);
            statement.executeUpdate();
        }
    }
}
