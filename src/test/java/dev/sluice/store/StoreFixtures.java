package dev.sluice.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.testing.Concurrently;
import dev.sluice.testing.TestDatabase;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;

/** Keys, teams and rows for the store tests. */
final class StoreFixtures {
    static final Instant T0 = Instant.parse("2025-01-01T00:00:00Z");

    private StoreFixtures() {}

    static String hash(String rawKey) {
        return VirtualKey.hash(rawKey);
    }

    /** A key with nothing set but what every key has. */
    static VirtualKey key(String rawKey) {
        return VirtualKey.builder(hash(rawKey), VirtualKey.maskedName(rawKey), T0).build();
    }

    static Team team(String teamId) {
        return Team.builder(teamId, T0).build();
    }

    static SpendRow row(String callId, String rawKey, String teamId, String group, String cost, Instant startedAt) {
        return SpendRow.builder(callId, group, startedAt)
                .keyHash(rawKey == null ? null : hash(rawKey))
                .teamId(teamId)
                .cost(new BigDecimal(cost))
                .build();
    }

    /** The store migrated up to {@code version} only, with {@code sql} run on it: what an earlier version left. */
    static Database leftAtSchemaVersion(TestDatabase store, String version, String sql) {
        Database database = store.connect();
        database.migrate(version);
        database.withConnection("write at schema version " + version, connection -> {
            try (Statement statement = connection.createStatement()) {
                return statement.executeUpdate(sql);
            }
        });
        return database;
    }

    static ObjectNode json(String text) {
        try {
            return (ObjectNode) Json.MAPPER.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The key's spend over every day of the daily rollups. */
    static BigDecimal loggedSpendOfKey(Database database, String keyHash) {
        return new DailySpendRepository(database).of(SpendDimension.KEY, keyHash, LocalDate.of(1970, 1, 1), LocalDate.of(9999, 12, 31))
                .stream().map(DailySpend::spend).reduce(Money.ZERO, BigDecimal::add);
    }

    static BigDecimal dollars(String amount) {
        return Money.of(new BigDecimal(amount));
    }

    /** Runs {@code task} on {@code threads} threads released together; rethrows the first failure. */
    static void concurrently(int threads, Concurrently.Task task) throws Exception {
        Concurrently.run(threads, Duration.ofSeconds(60), task);
    }
}
