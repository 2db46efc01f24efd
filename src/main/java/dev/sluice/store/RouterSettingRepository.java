package dev.sluice.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Router settings changed through the router settings API, in {@code sluice_router_settings},
 * one row per setting.
 *
 * <p>Every method blocks on the database: call it from a virtual thread or a worker, never
 * from an event loop. Failures are {@link StoreException}s.
 */
public final class RouterSettingRepository {
    private final Database database;

    public RouterSettingRepository(Database database) {
        this.database = Objects.requireNonNull(database, "database");
    }

    /**
     * Sets some settings and drops others, all in one transaction: either every part of the
     * change is stored or none is.
     *
     * @param set   values (JSON text) by setting name
     * @param reset names whose stored value is dropped
     * @throws StoreException of reason {@link StoreException.Reason#CONFLICT CONFLICT} when
     *                        another replica stored the same new setting at the same moment
     */
    public void write(Map<String, String> set, Collection<String> reset, Instant now) {
        database.inTransaction("write router settings", connection -> {
            for (Map.Entry<String, String> setting : set.entrySet()) {
                if (!update(connection, setting.getKey(), setting.getValue(), now)) {
                    insert(connection, setting.getKey(), setting.getValue(), now);
                }
            }
            for (String name : reset) {
                try (PreparedStatement statement = connection.prepareStatement(
                        "DELETE FROM sluice_router_settings WHERE setting_name = ?")) {
                    statement.setString(1, name);
                    statement.executeUpdate();
                }
            }
            return null;
        });
    }

    /** Every stored setting, by name. */
    public List<StoredRouterSetting> list() {
        return database.withConnection("list router settings", connection -> {
            try (PreparedStatement statement = connection.prepareStatement(
                    "SELECT setting_name, setting_value, updated_at FROM sluice_router_settings ORDER BY setting_name");
                    ResultSet rows = statement.executeQuery()) {
                List<StoredRouterSetting> settings = new ArrayList<>();
                while (rows.next()) {
                    settings.add(new StoredRouterSetting(rows.getString("setting_name"), rows.getString("setting_value"),
                            Columns.requiredTime(rows, "updated_at")));
                }
                return settings;
            }
        });
    }

    private static boolean update(Connection connection, String name, String value, Instant now) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(
                "UPDATE sluice_router_settings SET setting_value = ?, updated_at = ? WHERE setting_name = ?")) {
            statement.setString(1, value);
            Columns.time(statement, 2, Columns.micros(now));
            statement.setString(3, name);
            return statement.executeUpdate() == 1;
        }
    }

    private static void insert(Connection connection, String name, String value, Instant now) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(
                "INSERT INTO sluice_router_settings (setting_name, setting_value, updated_at) VALUES (?, ?, ?)")) {
            statement.setString(1, name);
            statement.setString(2, value);
            Columns.time(statement, 3, Columns.micros(now));
            statement.executeUpdate();
        }
    }
}
