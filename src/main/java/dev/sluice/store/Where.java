package dev.sluice.store;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** The WHERE clause of a listing and its parameters, in order; {@link #NONE} keeps every row. */
record Where(String sql, List<String> values) {
    static final Where NONE = new Where("", List.of());

    /** The keys a filter keeps: those of its team and of its user, when it names them. */
    static Where of(KeyFilter filter) {
        List<String> conditions = new ArrayList<>();
        List<String> values = new ArrayList<>();
        filter.teamId().ifPresent(team -> {
            conditions.add("team_id = ?");
            values.add(team);
        });
        filter.userId().ifPresent(user -> {
            conditions.add("user_id = ?");
            values.add(user);
        });
        return conditions.isEmpty() ? NONE : new Where(" WHERE " + String.join(" AND ", conditions), values);
    }

    /** Binds the values from parameter 1; returns the next parameter's index. */
    int bind(PreparedStatement statement) throws SQLException {
        for (int i = 0; i < values.size(); i++) {
            statement.setString(i + 1, values.get(i));
        }
        return values.size() + 1;
    }
}
