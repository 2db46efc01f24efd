package dev.sluice.store;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Logs a batch of spend rows on PostgreSQL in one statement: each column goes as one array
 * parameter, {@code unnest} turns the arrays back into rows, and {@code RETURNING} names the
 * calls that were new. One statement for a thousand rows, where a JDBC batch runs a thousand,
 * costs the database (and the gateway's driver) a fraction of the work.
 *
 * <p>Numbers, money and times go as text and are cast by the database, so each arrives exactly
 * as {@link SpendRow} holds it.
 */
final class PostgresSpendInsert {
    private static final String INSERT = "INSERT INTO sluice_spend_logs (call_id, key_hash, team_id, user_id, "
            + "model_group, deployment_id, prompt_tokens, completion_tokens, total_tokens, cost, status, duration_ms, "
            + "started_at, cached_tokens, request_tags, cache_hit, cache_key, end_user) "
            + "SELECT call_id, key_hash, team_id, user_id, model_group, deployment_id, prompt_tokens, completion_tokens, "
            + "total_tokens, CAST(cost AS NUMERIC(30, 12)), status, duration_ms, CAST(started_at AS TIMESTAMPTZ), "
            + "cached_tokens, request_tags, cache_hit, cache_key, end_user "
            + "FROM unnest(CAST(? AS TEXT[]), CAST(? AS TEXT[]), CAST(? AS TEXT[]), CAST(? AS TEXT[]), CAST(? AS TEXT[]), "
            + "CAST(? AS TEXT[]), CAST(? AS BIGINT[]), CAST(? AS BIGINT[]), CAST(? AS BIGINT[]), CAST(? AS TEXT[]), "
            + "CAST(? AS INTEGER[]), CAST(? AS BIGINT[]), CAST(? AS TEXT[]), CAST(? AS BIGINT[]), CAST(? AS TEXT[]), "
            + "CAST(? AS BOOLEAN[]), CAST(? AS TEXT[]), CAST(? AS TEXT[])) "
            + "AS u(call_id, key_hash, team_id, user_id, model_group, deployment_id, prompt_tokens, completion_tokens, "
            + "total_tokens, cost, status, duration_ms, started_at, cached_tokens, request_tags, cache_hit, cache_key, end_user) "
            + "ON CONFLICT DO NOTHING RETURNING call_id";

    private PostgresSpendInsert() {}

    /** Inserts each row unless logged; element {@code i} tells whether row {@code i} was new. */
    static boolean[] insert(Connection connection, List<SpendRow> rows) throws SQLException {
        int n = rows.size();
        Object[][] columns = new Object[18][n];
        for (int i = 0; i < n; i++) {
            SpendRow row = rows.get(i);
            columns[0][i] = row.callId();
            columns[1][i] = row.accounts().keyHash().orElse(null);
            columns[2][i] = row.accounts().teamId().orElse(null);
            columns[3][i] = row.accounts().userId().orElse(null);
            columns[4][i] = row.modelGroup();
            columns[5][i] = row.deploymentId().orElse(null);
            columns[6][i] = row.tokens().promptTokens();
            columns[7][i] = row.tokens().completionTokens();
            columns[8][i] = row.tokens().totalTokens();
            columns[9][i] = row.cost().toPlainString();
            columns[10][i] = row.status();
            columns[11][i] = row.durationMs();
            columns[12][i] = row.startedAt().toString();
            columns[13][i] = row.tokens().cachedTokens();
            columns[14][i] = row.tags().isEmpty() ? null : JsonColumns.write(row.tags());
            columns[15][i] = row.cacheHit();
            columns[16][i] = row.cacheKey().orElse(null);
            columns[17][i] = row.accounts().endUser().orElse(null);
        }
        String[] types = {"text", "text", "text", "text", "text", "text", "int8", "int8", "int8", "text", "int4", "int8",
            "text", "int8", "text", "bool", "text", "text"};
        Map<String, Integer> newIds = new HashMap<>();
        try (PreparedStatement statement = connection.prepareStatement(INSERT)) {
            for (int c = 0; c < columns.length; c++) {
                Array array = connection.createArrayOf(types[c], columns[c]);
                statement.setArray(c + 1, array);
            }
            try (ResultSet inserted = statement.executeQuery()) {
                while (inserted.next()) {
                    newIds.merge(inserted.getString(1), 1, Integer::sum);
                }
            }
        }
        // A call id twice in one batch is inserted once: the first of its rows counts as new.
        boolean[] added = new boolean[n];
        for (int i = 0; i < n; i++) {
            Integer left = newIds.get(rows.get(i).callId());
            if (left != null && left > 0) {
                added[i] = true;
                newIds.put(rows.get(i).callId(), left - 1);
            }
        }
        return added;
    }
}
