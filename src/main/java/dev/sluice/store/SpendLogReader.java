package dev.sluice.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.function.Consumer;

/**
 * The spend log as reports read it: a page of the rows a {@link SpendLogFilter} keeps, newest
 * first, or each of them handed over in turn. Both hold at most a page's reach of rows in
 * memory, however long the log: a page reaches at most {@link #MAX_REACH} rows in, and a full
 * reading streams.
 *
 * <p>On PostgreSQL the database filters, orders and counts out the page. On the embedded store
 * the rows an earlier version logged one per call are read the same way, and the
 * {@link SpendBlocks blocks} whose times overlap the filter's are decoded, the page kept in a
 * bounded heap: the embedded store serves one process, whose log is a few days of one
 * gateway's calls.
 *
 * <p>Every method blocks on the database. Failures are {@link StoreException}s.
 */
public final class SpendLogReader {
    /** The furthest a page reaches into the log: its offset and its size together. */
    public static final int MAX_REACH = 10_000;
    /** Rows fetched per round trip while a full reading streams. */
    private static final int FETCH = 500;
    /** Newest first; calls that started at the same microsecond by call id, so pages never overlap. */
    static final Comparator<SpendRow> NEWEST_FIRST = Comparator.comparing(SpendRow::startedAt).reversed()
            .thenComparing(SpendRow::callId);

    private final Database database;

    public SpendLogReader(Database database) {
        this.database = Objects.requireNonNull(database, "database");
    }

    /** Up to {@code limit} rows the filter keeps, newest first, after the {@code offset} newest. */
    public List<SpendRow> newest(SpendLogFilter filter, int offset, int limit) {
        if (offset < 0 || limit < 1 || (long) offset + limit > MAX_REACH) {
            throw new IllegalArgumentException("offset " + offset + " and limit " + limit + " (expected: limit >= 1, offset >= 0, "
                    + "together at most " + MAX_REACH + ")");
        }
        int reach = offset + limit;
        return database.inSnapshot("read spend rows", connection -> {
            // The heap's head is the oldest row kept: a newer one pushes it out once the heap is full.
            PriorityQueue<SpendRow> kept = new PriorityQueue<>(NEWEST_FIRST.reversed());
            Consumer<SpendRow> keep = row -> {
                kept.add(row);
                if (kept.size() > reach) {
                    kept.poll();
                }
            };
            select(connection, filter, " ORDER BY started_at DESC, call_id LIMIT " + reach, keep);
            if (database.engine() == Engine.H2) {
                SpendBlocks.scan(connection, filter.from(), filter.to(), row -> {
                    if (filter.keeps(row)) {
                        keep.accept(row);
                    }
                });
            }
            List<SpendRow> rows = new ArrayList<>(kept);
            rows.sort(NEWEST_FIRST);
            return List.copyOf(rows.subList(Math.min(offset, rows.size()), rows.size()));
        });
    }

    /** Hands over every row the filter keeps, in no set order, from one snapshot of the log. */
    public void each(SpendLogFilter filter, Consumer<SpendRow> each) {
        database.inSnapshot("scan spend rows", connection -> {
            select(connection, filter, "", each);
            if (database.engine() == Engine.H2) {
                SpendBlocks.scan(connection, filter.from(), filter.to(), row -> {
                    if (filter.keeps(row)) {
                        each.accept(row);
                    }
                });
            }
            return null;
        });
    }

    private static void select(Connection connection, SpendLogFilter filter, String tail, Consumer<SpendRow> each)
            throws SQLException {
        Where where = filter.where();
        try (PreparedStatement statement = connection.prepareStatement(
                "SELECT " + SpendRepository.COLUMNS + " FROM sluice_spend_logs" + where.sql() + tail)) {
            Columns.time(statement, 1, filter.from());
            Columns.time(statement, 2, filter.to());
            for (int i = 0; i < where.values().size(); i++) {
                statement.setString(i + 3, where.values().get(i));
            }
            // Within the snapshot's transaction PostgreSQL's driver streams by this many rows.
            statement.setFetchSize(FETCH);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    each.accept(SpendRepository.read(rows));
                }
            }
        }
    }
}
