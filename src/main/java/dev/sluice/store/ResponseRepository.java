package dev.sluice.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Responses answered through the Responses API, in {@code sluice_responses}, by response id.
 * A response is found only by its owner and only until it expires; {@link #prune} drops
 * what is no longer served and then the oldest beyond a row count.
 *
 * <p>Every method blocks on the database: call it from a virtual thread or a worker, never
 * from an event loop. Failures are {@link StoreException}s.
 */
public final class ResponseRepository {
    private static final String COLUMNS = "response_id, owner, model_group, created_at, expires_at, response, conversation";

    private final Database database;

    public ResponseRepository(Database database) {
        this.database = Objects.requireNonNull(database, "database");
    }

    /**
     * Stores a new response.
     *
     * @throws StoreException of reason {@link StoreException.Reason#CONFLICT CONFLICT} when
     *                        the id is already taken
     */
    public void save(StoredResponse response) {
        database.withConnection("save response", connection -> {
            try (PreparedStatement statement = connection.prepareStatement(
                    "INSERT INTO sluice_responses (" + COLUMNS + ", size_bytes) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
                statement.setString(1, response.id());
                statement.setString(2, response.owner());
                statement.setString(3, response.group());
                Columns.time(statement, 4, response.createdAt());
                Columns.time(statement, 5, response.expiresAt());
                statement.setString(6, response.responseJson());
                statement.setString(7, response.conversationJson());
                statement.setLong(8, response.sizeBytes());
                return statement.executeUpdate();
            }
        });
    }

    /** The response with this id, whoever owns it, when it has not expired at {@code now}: for the master key. */
    public Optional<StoredResponse> findAny(String id, Instant now) {
        return database.withConnection("find response", connection -> {
            try (PreparedStatement statement = connection.prepareStatement("SELECT " + COLUMNS
                    + " FROM sluice_responses WHERE response_id = ? AND expires_at > ?")) {
                statement.setString(1, id);
                Columns.time(statement, 2, now);
                try (ResultSet row = statement.executeQuery()) {
                    return row.next() ? Optional.of(read(row)) : Optional.empty();
                }
            }
        });
    }

    /** The response with this id, when {@code owner} owns it and it has not expired at {@code now}. */
    public Optional<StoredResponse> find(String id, String owner, Instant now) {
        return database.withConnection("find response", connection -> {
            try (PreparedStatement statement = connection.prepareStatement("SELECT " + COLUMNS
                    + " FROM sluice_responses WHERE response_id = ? AND owner = ? AND expires_at > ?")) {
                statement.setString(1, id);
                statement.setString(2, owner);
                Columns.time(statement, 3, now);
                try (ResultSet row = statement.executeQuery()) {
                    return row.next() ? Optional.of(read(row)) : Optional.empty();
                }
            }
        });
    }

    /**
     * Deletes the response with this id when {@code owner} owns it and it has not expired at
     * {@code now}; false otherwise (an expired one is left to {@link #prune}).
     */
    public boolean delete(String id, String owner, Instant now) {
        return database.withConnection("delete response", connection -> {
            try (PreparedStatement statement = connection.prepareStatement(
                    "DELETE FROM sluice_responses WHERE response_id = ? AND owner = ? AND expires_at > ?")) {
                statement.setString(1, id);
                statement.setString(2, owner);
                Columns.time(statement, 3, now);
                return statement.executeUpdate() == 1;
            }
        });
    }

    /**
     * Drops the responses expired at {@code now}, then the oldest (by creation, ties by id)
     * beyond the newest {@code maxRows}.
     *
     * @return how many were dropped
     */
    public int prune(Instant now, long maxRows) {
        if (maxRows < 0) {
            throw new IllegalArgumentException("maxRows: " + maxRows + " (expected: >= 0)");
        }
        return database.withConnection("prune responses", connection -> {
            int dropped;
            try (PreparedStatement statement = connection.prepareStatement("DELETE FROM sluice_responses WHERE expires_at <= ?")) {
                Columns.time(statement, 1, now);
                dropped = statement.executeUpdate();
            }
            return dropped + dropBeyond(connection, maxRows);
        });
    }

    /** Drops every row older than the newest {@code maxRows}: all of them from the newest row that is one too many. */
    private static int dropBeyond(Connection connection, long maxRows) throws SQLException {
        Instant createdAt;
        String id;
        try (PreparedStatement statement = connection.prepareStatement("SELECT created_at, response_id FROM sluice_responses"
                + " ORDER BY created_at DESC, response_id DESC LIMIT 1 OFFSET ?")) {
            statement.setLong(1, maxRows);
            try (ResultSet row = statement.executeQuery()) {
                if (!row.next()) {
                    return 0;
                }
                createdAt = Columns.requiredTime(row, "created_at");
                id = row.getString("response_id");
            }
        }
        try (PreparedStatement statement = connection.prepareStatement("DELETE FROM sluice_responses"
                + " WHERE created_at < ? OR (created_at = ? AND response_id <= ?)")) {
            Columns.time(statement, 1, createdAt);
            Columns.time(statement, 2, createdAt);
            statement.setString(3, id);
            return statement.executeUpdate();
        }
    }

    private static StoredResponse read(ResultSet row) throws SQLException {
        return new StoredResponse(row.getString("response_id"), row.getString("owner"), row.getString("model_group"),
                Columns.requiredTime(row, "created_at"), Columns.requiredTime(row, "expires_at"),
                row.getString("response"), row.getString("conversation"));
    }
}
