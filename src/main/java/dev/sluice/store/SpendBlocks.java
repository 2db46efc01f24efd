package dev.sluice.store;

import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The embedded store's spend log, {@code sluice_spend_blocks}: rows logged a batch at a time,
 * each block its rows' {@link SpendRowCodec} bodies one after another, each after its length,
 * with the earliest and latest start among them. A batch larger than {@link #MAX_BLOCK_BYTES}
 * takes as many blocks as it needs.
 *
 * <p>Readers decode every block whose starts overlap the times asked for and keep the rows
 * inside them; blocks are deleted whole. Work on a connection the caller holds, in its
 * transaction.
 */
final class SpendBlocks {
    /** The most bytes of rows one block holds (a single larger row gets a block of its own). */
    static final int MAX_BLOCK_BYTES = 1 << 20;
    private static final String INSERT = "INSERT INTO sluice_spend_blocks "
            + "(first_started_at, last_started_at, row_count, body) VALUES (?, ?, ?, ?)";

    private SpendBlocks() {}

    /** Logs {@code rows} in as few blocks as their size allows. */
    static void write(Connection connection, List<SpendRow> rows) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(INSERT)) {
            List<SpendRowCodec.Encoded> block = new ArrayList<>();
            int bytes = 0;
            for (SpendRow row : rows) {
                SpendRowCodec.Encoded encoded = SpendRowCodec.prepare(row);
                if (!block.isEmpty() && bytes + 4 + encoded.bodyBytes() > MAX_BLOCK_BYTES) {
                    add(statement, block, bytes);
                    block.clear();
                    bytes = 0;
                }
                block.add(encoded);
                bytes += 4 + encoded.bodyBytes();
            }
            if (!block.isEmpty()) {
                add(statement, block, bytes);
            }
            statement.executeBatch();
        }
    }

    private static void add(PreparedStatement statement, List<SpendRowCodec.Encoded> rows, int bytes)
            throws SQLException {
        ByteBuffer body = ByteBuffer.allocate(bytes);
        Instant first = Instant.MAX;
        Instant last = Instant.MIN;
        for (SpendRowCodec.Encoded row : rows) {
            body.putInt(row.bodyBytes());
            row.writeBody(body, 0);
            Instant started = row.row().startedAt();
            first = started.isBefore(first) ? started : first;
            last = started.isAfter(last) ? started : last;
        }
        Columns.time(statement, 1, first);
        Columns.time(statement, 2, last);
        statement.setInt(3, rows.size());
        statement.setBytes(4, body.array());
        statement.addBatch();
    }

    /** Hands over each logged row that started in {@code [from, to)}, block by block. */
    static void scan(Connection connection, Instant from, Instant to, Consumer<SpendRow> each) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("SELECT block_id, body FROM sluice_spend_blocks "
                + "WHERE last_started_at >= ? AND first_started_at < ? ORDER BY block_id")) {
            Columns.time(statement, 1, from);
            Columns.time(statement, 2, to);
            try (ResultSet blocks = statement.executeQuery()) {
                while (blocks.next()) {
                    decode(blocks.getLong(1), blocks.getBytes(2), row -> {
                        if (!row.startedAt().isBefore(from) && row.startedAt().isBefore(to)) {
                            each.accept(row);
                        }
                    });
                }
            }
        }
    }

    /** Hands over every logged row. */
    static void scanAll(Connection connection, Consumer<SpendRow> each) throws SQLException {
        scan(connection, Instant.EPOCH, Instant.parse("9999-12-31T00:00:00Z"), each);
    }

    /** The block's rows, in order; a block this version cannot read fails the read, naming it. */
    private static void decode(long blockId, byte[] block, Consumer<SpendRow> each) throws SQLException {
        ByteBuffer in = ByteBuffer.wrap(block);
        while (in.hasRemaining()) {
            int length = in.remaining() >= 4 ? in.getInt() : -1;
            Optional<SpendRowCodec.Decoded> row = length < 0 || length > in.remaining() ? Optional.empty()
                    : SpendRowCodec.decode(in.slice(in.position(), length));
            if (row.isEmpty()) {
                throw new SQLException("spend log block " + blockId + " holds a row this version cannot read, at byte "
                        + in.position() + " of " + block.length);
            }
            in.position(in.position() + length);
            each.accept(row.get().row());
        }
    }

    /** Deletes up to {@code chunk} blocks whose every row started before {@code cutoff}; how many rows went. */
    static int deleteStartedBefore(Connection connection, Instant cutoff, int chunk) throws SQLException {
        List<Long> ids = new ArrayList<>();
        int rows = 0;
        try (PreparedStatement statement = connection.prepareStatement("SELECT block_id, row_count "
                + "FROM sluice_spend_blocks WHERE last_started_at < ? ORDER BY last_started_at LIMIT ?")) {
            Columns.time(statement, 1, cutoff);
            statement.setInt(2, chunk);
            try (ResultSet blocks = statement.executeQuery()) {
                while (blocks.next()) {
                    ids.add(blocks.getLong(1));
                    rows += blocks.getInt(2);
                }
            }
        }
        try (PreparedStatement statement = connection.prepareStatement(
                "DELETE FROM sluice_spend_blocks WHERE block_id = ?")) {
            for (long id : ids) {
                statement.setLong(1, id);
                statement.addBatch();
            }
            statement.executeBatch();
        }
        return rows;
    }

    /** How many rows the blocks hold. */
    static long count(Connection connection) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(
                        "SELECT COALESCE(SUM(row_count), 0) FROM sluice_spend_blocks");
                ResultSet rows = statement.executeQuery()) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
