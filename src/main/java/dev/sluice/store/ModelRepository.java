package dev.sluice.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Deployments added through the model API, in {@code sluice_models}, by deployment id.
 *
 * <p>Every method blocks on the database: call it from a virtual thread or a worker, never
 * from an event loop. Failures are {@link StoreException}s.
 */
public final class ModelRepository {
    private static final String COLUMNS = "model_id, model_name, entry, created_at, updated_at";
    private static final String SELECT = "SELECT " + COLUMNS + " FROM sluice_models";

    private final Database database;

    public ModelRepository(Database database) {
        this.database = Objects.requireNonNull(database, "database");
    }

    /**
     * Stores a new deployment.
     *
     * @throws StoreException of reason {@link StoreException.Reason#CONFLICT CONFLICT} when
     *                        the id is already taken
     */
    public void insert(StoredModel model) {
        database.withConnection("insert model", connection -> {
            try (PreparedStatement statement = connection.prepareStatement(
                    "INSERT INTO sluice_models (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?)")) {
                statement.setString(1, model.modelId());
                statement.setString(2, model.modelName());
                statement.setString(3, model.entry());
                Columns.time(statement, 4, model.createdAt());
                Columns.time(statement, 5, model.updatedAt());
                return statement.executeUpdate();
            }
        });
    }

    /** Writes the name, entry and update time of the stored deployment with the same id; false when there is none. */
    public boolean update(StoredModel model) {
        return database.withConnection("update model", connection -> {
            try (PreparedStatement statement = connection.prepareStatement(
                    "UPDATE sluice_models SET model_name = ?, entry = ?, updated_at = ? WHERE model_id = ?")) {
                statement.setString(1, model.modelName());
                statement.setString(2, model.entry());
                Columns.time(statement, 3, model.updatedAt());
                statement.setString(4, model.modelId());
                return statement.executeUpdate() == 1;
            }
        });
    }

    /** Deletes a stored deployment; false when there was none. */
    public boolean delete(String modelId) {
        return database.withConnection("delete model", connection -> {
            try (PreparedStatement statement = connection.prepareStatement("DELETE FROM sluice_models WHERE model_id = ?")) {
                statement.setString(1, modelId);
                return statement.executeUpdate() == 1;
            }
        });
    }

    public Optional<StoredModel> findById(String modelId) {
        return database.withConnection("find model", connection -> {
            try (PreparedStatement statement = connection.prepareStatement(SELECT + " WHERE model_id = ?")) {
                statement.setString(1, modelId);
                List<StoredModel> found = all(statement);
                return found.isEmpty() ? Optional.empty() : Optional.of(found.getFirst());
            }
        });
    }

    /** Every stored deployment, oldest first (ties by id), the order replicas serve them in. */
    public List<StoredModel> list() {
        return database.withConnection("list models", connection -> {
            try (PreparedStatement statement = connection.prepareStatement(SELECT + " ORDER BY created_at, model_id")) {
                return all(statement);
            }
        });
    }

    private static List<StoredModel> all(PreparedStatement statement) throws SQLException {
        List<StoredModel> models = new ArrayList<>();
        try (ResultSet rows = statement.executeQuery()) {
            while (rows.next()) {
                models.add(new StoredModel(rows.getString("model_id"), rows.getString("model_name"), rows.getString("entry"),
                        Columns.requiredTime(rows, "created_at"), Columns.requiredTime(rows, "updated_at")));
            }
        }
        return models;
    }
}
