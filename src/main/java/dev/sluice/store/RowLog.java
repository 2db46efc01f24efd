package dev.sluice.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The rows an earlier version logged one per call in {@code sluice_spend_logs} of an embedded
 * store, which now logs {@link SpendBlocks blocks}: a batch shipped again after an upgrade may
 * hold calls logged there, and those must not count twice. Only a call that started no later
 * than the newest row there can be one of them, so only those are looked up, by call id; the
 * newest start is read once, on the first post, and moved by posts logged one per call since.
 */
final class RowLog {
    /** The newest start logged one per call; empty when there is none. Null until read. */
    private volatile Optional<Instant> newest;

    /** The rows of {@code rows} whose calls are not logged one per call. */
    List<SpendRow> notIn(Connection connection, List<SpendRow> rows) throws SQLException {
        Optional<Instant> last = newest(connection);
        if (last.isEmpty()) {
            return rows;
        }
        Set<String> logged = new HashSet<>();
        try (PreparedStatement statement = connection.prepareStatement(
                "SELECT call_id FROM sluice_spend_logs WHERE call_id = ?")) {
            for (SpendRow row : rows) {
                if (!row.startedAt().isAfter(last.get())) {
                    statement.setString(1, row.callId());
                    try (ResultSet found = statement.executeQuery()) {
                        if (found.next()) {
                            logged.add(row.callId());
                        }
                    }
                }
            }
        }
        if (logged.isEmpty()) {
            return rows;
        }
        List<SpendRow> fresh = new ArrayList<>(rows.size());
        for (SpendRow row : rows) {
            if (!logged.contains(row.callId())) {
                fresh.add(row);
            }
        }
        return fresh;
    }

    /** Notes rows just logged one per call, so that their calls are looked up from now on. */
    void logged(List<SpendRow> rows) {
        Optional<Instant> known = newest;
        if (known == null || rows.isEmpty()) {
            return;  // read from the table on the next look
        }
        Instant latest = known.orElse(Instant.MIN);
        for (SpendRow row : rows) {
            latest = row.startedAt().isAfter(latest) ? row.startedAt() : latest;
        }
        newest = Optional.of(latest);
    }

    private Optional<Instant> newest(Connection connection) throws SQLException {
        Optional<Instant> known = newest;
        if (known == null) {
            try (PreparedStatement statement = connection.prepareStatement(
                            "SELECT MAX(started_at) AS newest FROM sluice_spend_logs");
                    ResultSet row = statement.executeQuery()) {
                row.next();
                known = Columns.time(row, "newest");
                newest = known;
            }
        }
        return known;
    }
}
