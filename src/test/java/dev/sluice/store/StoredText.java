package dev.sluice.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;

/** Everything a store table holds, as text: for tests that must show a value was never written. */
public final class StoredText {
    private StoredText() {}

    /** Every column of every row of {@code table}, each rendered as text, one row per line. */
    public static String of(Database database, String table) {
        if (!table.matches("sluice_[a-z_]+")) {
            throw new IllegalArgumentException("table: " + table + " (expected: a sluice_ table)");
        }
        return database.withConnection("dump " + table, connection -> {
            StringBuilder text = new StringBuilder();
            try (PreparedStatement statement = connection.prepareStatement("SELECT * FROM " + table);
                    ResultSet rows = statement.executeQuery()) {
                int columns = rows.getMetaData().getColumnCount();
                while (rows.next()) {
                    for (int i = 1; i <= columns; i++) {
                        text.append(rows.getString(i)).append('\t');
                    }
                    text.append('\n');
                }
            }
            return text.toString();
        });
    }
}
