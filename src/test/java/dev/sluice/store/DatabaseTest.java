package dev.sluice.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.testing.FakeClock;
import dev.sluice.testing.Ports;
import dev.sluice.testing.StoreTest;
import dev.sluice.testing.TestDatabase;
import dev.sluice.testing.TestDatabases;
import dev.sluice.time.TimeSource;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Opening, migrating, probing and closing the store, on both engines. */
class DatabaseTest {
    static final String HASH = VirtualKey.hash("sk-database-test");
    /** Enough to show the bound holds; shorter than the suite's two seconds to keep these tests quick. */
    static final StoreOptions QUICK = TestDatabases.OPTIONS.withConnectionTimeout(Duration.ofMillis(500));

    @StoreTest
    void migrationsCreateTheTablesAndRecordEachVersion(Database database) {
        assertThat(tables(database)).contains("sluice_keys", "sluice_teams", "sluice_spend_logs", "sluice_models",
                "sluice_responses", "sluice_daily_spend", "sluice_spend_blocks", "sluice_spend_marks",
                "sluice_users", "sluice_team_members", "sluice_organizations", "sluice_customers", "sluice_schema_history");
        assertThat(appliedVersions(database)).containsExactly("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14");
    }

    @StoreTest
    void reopeningAppliesNothingTwiceAndKeepsTheData(TestDatabase store) {
        Database first = store.open();
        new KeyRepository(first).insert(VirtualKey.builder(HASH, "sk-...test", FakeClock.START).build());
        first.close();

        Database second = store.open();

        assertThat(appliedVersions(second)).containsExactly("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14");
        assertThat(new KeyRepository(second).findByHash(HASH)).isPresent();
    }

    @StoreTest
    void aDatabaseThatAlreadyHoldsOtherTablesGetsSluicesBesideThem(TestDatabase store) {
        Database bare = store.connect();
        bare.withConnection("make a foreign table", connection -> {
            try (Statement statement = connection.createStatement()) {
                return statement.executeUpdate("CREATE TABLE litellm_verificationtoken (token VARCHAR(64) PRIMARY KEY)");
            }
        });

        bare.migrate();

        assertThat(tables(bare)).contains("litellm_verificationtoken", "sluice_keys", "sluice_spend_logs");
        assertThat(appliedVersions(bare)).containsExactly("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14");
    }

    @Test
    void aPostgresqlSchemaNamedInTheUrlIsCreatedAndHoldsTheTables() {
        try (TestDatabase store = TestDatabases.postgresInMissingSchema()) {
            Database database = store.database();
            String schema = ((StoreLocation.Postgres) store.location()).schemas().getFirst();

            String current = database.withConnection("read schema", connection -> connection.getSchema());
            assertThat(current).isEqualTo(schema);
            assertThat(tables(database)).contains("sluice_keys", "sluice_schema_history");
            new KeyRepository(database).insert(VirtualKey.builder(HASH, "sk-...test", FakeClock.START).build());
            assertThat(new KeyRepository(database).findByHash(HASH)).isPresent();
        }
    }

    @StoreTest
    void anOpenStoreIsConnected(Database database) {
        StoreStatus status = database.status();

        assertThat(status.connected()).isTrue();
        assertThat(status.describe()).isEqualTo("connected");
        assertThat(status.location()).isEqualTo(database.location().describe());
    }

    @StoreTest
    void aClosedStoreSaysSoAndRefusesWork(TestDatabase store) {
        Database database = store.open();
        database.close();
        database.close();

        assertThat(database.status().describe()).isEqualTo("unreachable: closed");
        assertThatThrownBy(() -> new KeyRepository(database).findByHash(HASH))
                .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.reason()).isEqualTo(StoreException.Reason.FAILED))
                .hasMessage("find key: the store is closed");
    }

    @Test
    void aRefusingPostgresqlIsReportedUnreachableWithinTheConnectionTimeout() {
        int port = Ports.refusing();
        StoreLocation location = StoreLocation.Postgres.parse("postgresql://postgres@127.0.0.1:" + port + "/test");

        try (Database database = Database.connect(location, QUICK, TimeSource.system().ticker())) {
            long start = System.nanoTime();
            StoreStatus status = database.status();
            Duration took = Duration.ofNanos(System.nanoTime() - start);

            assertThat(status.connected()).isFalse();
            assertThat(status.describe()).isEqualTo("unreachable: Connection to 127.0.0.1:" + port + " refused");
            assertThat(took).isLessThan(Duration.ofSeconds(3));
        }
    }

    @Test
    void openingARefusingPostgresqlFailsAsUnavailableNamingWhereAndWhy() {
        int port = Ports.refusing();
        StoreLocation location = StoreLocation.Postgres.parse("postgresql://postgres:pw@127.0.0.1:" + port + "/test");

        long start = System.nanoTime();
        assertThatThrownBy(() -> Database.open(location, QUICK, TimeSource.system().ticker()))
                .isInstanceOfSatisfying(StoreException.class,
                        e -> assertThat(e.reason()).isEqualTo(StoreException.Reason.UNAVAILABLE))
                .hasMessage("migrate postgresql://postgres@127.0.0.1:" + port + "/test: Connection to 127.0.0.1:"
                        + port + " refused");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
    }

    @Test
    void aStoreThatLosesItsServerFailsOperationsAsUnavailable() {
        int port = Ports.refusing();
        StoreLocation location = StoreLocation.Postgres.parse("postgresql://postgres@127.0.0.1:" + port + "/test");

        try (Database database = Database.connect(location, QUICK, TimeSource.system().ticker())) {
            assertThatThrownBy(() -> new SpendRepository(database).count())
                    .isInstanceOfSatisfying(StoreException.class,
                            e -> assertThat(e.reason()).isEqualTo(StoreException.Reason.UNAVAILABLE))
                    .hasMessage("count spend rows: Connection to 127.0.0.1:" + port + " refused");
        }
    }

    @StoreTest
    void aStoreWhoseSchemaIsNotAppliedYetIsUnavailableUntilItIs(TestDatabase store) {
        Database bare = store.connect();

        assertThatThrownBy(() -> new SpendRepository(bare).count())
                .isInstanceOfSatisfying(StoreException.class,
                        e -> assertThat(e.reason()).isEqualTo(StoreException.Reason.UNAVAILABLE))
                .hasMessageContaining("schema is not applied yet");

        bare.migrate();

        assertThat(new SpendRepository(bare).count()).isZero();
    }

    static List<String> tables(Database database) {
        return database.withConnection("list tables", connection -> {
            List<String> names = new ArrayList<>();
            try (ResultSet rows = connection.getMetaData().getTables(null, connection.getSchema(), "%", new String[] {"TABLE"})) {
                while (rows.next()) {
                    names.add(rows.getString("TABLE_NAME"));
                }
            }
            return names;
        });
    }

    static List<String> appliedVersions(Database database) {
        return database.withConnection("read history", connection -> {
            List<String> versions = new ArrayList<>();
            try (Statement statement = connection.createStatement();
                    ResultSet rows = statement.executeQuery(
                            "SELECT version FROM sluice_schema_history WHERE success AND version IS NOT NULL ORDER BY installed_rank")) {
                while (rows.next()) {
                    versions.add(rows.getString(1));
                }
            }
            return versions;
        });
    }
}
