package dev.sluice.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.util.DriverDataSource;
import java.io.IOException;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.flywaydb.core.api.output.MigrateResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store's database: a pool of connections to an embedded H2 file or to PostgreSQL,
 * with the schema in {@code db/migration} applied. Repositories ({@link KeyRepository},
 * {@link TeamRepository}, {@link SpendRepository}) take one.
 *
 * <p>Every method blocks on the network or the disk. Call it from a virtual thread or a
 * worker, never from an event loop.
 *
 * <h2>Design notes</h2>
 * <p><b>Why H2 for the embedded store, not SQLite.</b> H2 is pure Java: it ships inside
 * the jar and needs no native library for each OS and architecture. Its MVStore engine
 * has multi-version concurrency with row locks, so the pool's connections write at once
 * (a spend flush beside a key update), where SQLite allows one writer per file and answers
 * the rest {@code SQLITE_BUSY}. And its PostgreSQL compatibility mode
 * ({@code MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE}) runs the very schema and statements
 * written for PostgreSQL, {@code INSERT ... ON CONFLICT DO NOTHING} included, so one
 * migration script and one set of repositories serve both engines, and the same tests
 * run against both.
 *
 * <p><b>Unreachable databases.</b> The pool starts without a connection
 * ({@code initializationFailTimeout = -1}), so building it never blocks; a connection is
 * sought, for at most {@link StoreOptions#connectionTimeout()}, when an operation needs
 * one, and a failure to get one is a {@link StoreException} of reason
 * {@link StoreException.Reason#UNAVAILABLE UNAVAILABLE} naming the driver's reason.
 * The PostgreSQL driver's own connect timeout is set to the same bound, so a server that
 * drops packets fails as quickly as one that refuses. An outage is logged once, when an
 * operation first fails so, and its end once ({@link StoreOutageLog}), however many
 * operations fail in between.
 *
 * <p><b>Coming back.</b> Once it has failed to connect for a while, the pool tries again only
 * every 5 seconds (its own back-off, which cannot be set), so a database that returned could
 * wait that long for its first connection, on top of the callers' own back-offs (the journal
 * shipper's). After an operation found a PostgreSQL database unreachable, and until the pool
 * holds a connection again, operations connect by themselves, without the pool: each fails as
 * soon as the database refuses, and the first after it returns succeeds at once.
 *
 * <p><b>Migrations.</b> Flyway applies {@code V<n>__*.sql} in order and records them in
 * {@code sluice_schema_history}, in the URL's schema ({@code schema=} or
 * {@code currentSchema=}, created when missing) or the connection's default one. A database that already holds other tables (LiteLLM's,
 * when Sluice is pointed at the database LiteLLM used) is baselined at version 0 and then
 * migrated, so Sluice's tables are added beside them.
 */
public final class Database implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Database.class);
    private static final String HISTORY_TABLE = "sluice_schema_history";

    private final StoreLocation location;
    private final HikariDataSource pool;
    /** Held through {@link #inWriterTransaction} on an embedded store. */
    private final ReentrantLock embeddedWriter = new ReentrantLock();

    /** Whether {@link #migrate()} has succeeded: the repositories may not be used before. */
    private volatile boolean migrated;
    private volatile boolean reached; // a migration has held a connection
    private final StoreOutageLog outages;
    /** The database without the pool, for operations while the pool has no connection after an outage. */
    private final DataSource unpooled;
    /** Set when an operation found the database unreachable; cleared once the pool holds a connection again. */
    private volatile boolean bypassPool;

    private Database(StoreLocation location, HikariConfig config, LongSupplier ticker) {
        this.location = location;
        this.pool = new HikariDataSource(config);
        this.unpooled = new DriverDataSource(config.getJdbcUrl(), config.getDriverClassName(),
                config.getDataSourceProperties(), config.getUsername(), config.getPassword());
        this.outages = new StoreOutageLog(location.describe(), ticker);
    }

    /**
     * Opens the pool and applies any migration not yet applied: the database is ready for
     * the repositories when this returns. An outage is timed on {@code ticker}, the gateway's.
     *
     * @throws StoreException when the database cannot be reached in time
     *                        ({@link StoreException.Reason#UNAVAILABLE}) or a migration fails
     */
    public static Database open(StoreLocation location, StoreOptions options, LongSupplier ticker) {
        Database database = connect(location, options, ticker);
        try {
            database.migrate();
            return database;
        } catch (RuntimeException e) {
            database.close();
            throw e;
        }
    }

    /** Opens the pool without touching the database (nothing waits on the network); {@link #migrate()} before use. */
    public static Database connect(StoreLocation location, StoreOptions options, LongSupplier ticker) {
        Objects.requireNonNull(location, "location");
        Objects.requireNonNull(options, "options");
        return new Database(location, poolConfig(location, options), Objects.requireNonNull(ticker, "ticker"));
    }

    private static HikariConfig poolConfig(StoreLocation location, StoreOptions options) {
        long timeoutMs = options.connectionTimeout().toMillis();
        HikariConfig config = new HikariConfig();
        config.setPoolName("sluice-store");
        config.setJdbcUrl(location.jdbcUrl());
        config.setConnectionTimeout(timeoutMs);
        config.setValidationTimeout(Math.max(250, timeoutMs / 2));
        config.setInitializationFailTimeout(-1);
        int maxSize = options.maxPoolSize();
        switch (location) {
            case StoreLocation.Embedded embedded -> {
                config.setDriverClassName("org.h2.Driver");
                // H2 closes its file when its last connection closes: connections in the
                // process never go stale, so keep them rather than reopen the file.
                config.setMaxLifetime(0);
                createParent(embedded);
            }
            case StoreLocation.Postgres postgres -> {
                config.setDriverClassName("org.postgresql.Driver");
                postgres.user().ifPresent(config::setUsername);
                postgres.password().ifPresent(p -> config.setPassword(p.value()));
                long seconds = Math.max(1, (timeoutMs + 999) / 1000);
                config.addDataSourceProperty("connectTimeout", Long.toString(seconds));
                config.addDataSourceProperty("loginTimeout", Long.toString(seconds));
                maxSize = postgres.poolSize().orElse(maxSize);
            }
        }
        config.setMaximumPoolSize(maxSize);
        config.setMinimumIdle(Math.min(2, maxSize));
        return config;
    }

    private static void createParent(StoreLocation.Embedded embedded) {
        try {
            Files.createDirectories(embedded.file().getParent());
        } catch (IOException e) {
            throw new StoreException(StoreException.Reason.FAILED,
                    "open " + embedded.describe() + ": cannot create its folder: " + e, e);
        }
    }

    /**
     * Applies the migrations not yet applied, in order, each in its own transaction.
     *
     * @throws StoreException when the database cannot be reached or a migration fails
     */
    public void migrate() {
        migrate(null);
    }

    /** Applies the migrations up to {@code target} ({@code null}: all), for tests of one migration's effect. */
    void migrate(String target) {
        try {
            FluentConfiguration flyway = Flyway.configure(Database.class.getClassLoader())
                    .target(target == null ? "latest" : target)
                    .dataSource(pool)
                    .locations("classpath:db/migration")
                    .table(HISTORY_TABLE)
                    .baselineOnMigrate(true)
                    .baselineVersion("0");
            if (location instanceof StoreLocation.Postgres postgres && !postgres.schemas().isEmpty()) {
                // A schema named in the URL is created when missing, as Prisma does for LiteLLM.
                flyway.schemas(postgres.schemas().toArray(String[]::new));
            }
            MigrateResult result = oneAtATime(() -> flyway.load().migrate());
            migrated = true;
            LOG.info("store: {}, schema version {} ({} migration(s) applied now)", location.describe(),
                    result.targetSchemaVersion == null ? result.initialSchemaVersion : result.targetSchemaVersion,
                    result.migrationsExecuted);
        } catch (FlywayException e) {
            for (Throwable cause = e; cause != null; cause = cause.getCause()) {
                if (cause instanceof SQLException sql) {
                    StoreException classified = StoreException.of("migrate " + location.describe(), sql);
                    if (classified.reason() == StoreException.Reason.UNAVAILABLE) {
                        throw classified;
                    }
                    break;
                }
            }
            throw new StoreException(StoreException.Reason.FAILED,
                    "migrate " + location.describe() + ": " + e.getMessage(), e);
        }
    }

    /** Whether a migration has held a connection: a slow one is under way, not a database away. */
    public boolean reached() {
        return reached;
    }

    /** Any number for PostgreSQL's advisory lock that replicas take around their migrations. */
    private static final long MIGRATION_LOCK = 0x51_1CE_0001L;

    /**
     * Runs {@code migration} while holding a PostgreSQL advisory lock, so replicas starting
     * together on a new database migrate one after the other: the first creates the schema,
     * the others find it done. (Flyway's own lock is its history table, which does not exist
     * yet when the first of them baselines a database that holds other tables.) The embedded
     * store serves one process and needs none.
     */
    private MigrateResult oneAtATime(java.util.function.Supplier<MigrateResult> migration) {
        if (!(location instanceof StoreLocation.Postgres)) {
            return migration.get();
        }
        try (Connection lock = pool.getConnection(); java.sql.Statement statement = lock.createStatement()) {
            reached = true;
            statement.execute("SELECT pg_advisory_lock(" + MIGRATION_LOCK + ")");
            try {
                return migration.get();
            } finally {
                statement.execute("SELECT pg_advisory_unlock(" + MIGRATION_LOCK + ")");
            }
        } catch (SQLException e) {
            throw new FlywayException("could not take the migration lock: " + e.getMessage(), e);
        }
    }

    /**
     * Probes the database with a fresh or pooled connection: connected, or unreachable
     * with a short reason. Waits at most about {@link StoreOptions#connectionTimeout()}.
     */
    public StoreStatus status() {
        if (pool.isClosed()) {
            return StoreStatus.down(location.describe(), "closed");
        }
        try (Connection connection = borrow()) {
            int seconds = (int) Math.max(1, Duration.ofMillis(pool.getValidationTimeout()).toSeconds());
            if (!connection.isValid(seconds)) {
                outages.failed("no answer to a probe");
                return StoreStatus.down(location.describe(), "no answer to a probe");
            }
            outages.answered();
            return StoreStatus.up(location.describe());
        } catch (SQLException e) {
            String reason = DriverMessages.shortReason(e);
            bypassPool = location instanceof StoreLocation.Postgres;
            outages.failed(reason);
            return StoreStatus.down(location.describe(), reason);
        }
    }

    public StoreLocation location() {
        return location;
    }

    public Engine engine() {
        return location.engine();
    }

    /** Closes every connection; for H2 that also closes the file. Idempotent. */
    @Override
    public void close() {
        pool.close();
    }

    /** Work on one connection that may throw the driver's exception. */
    interface SqlWork<T> {
        T run(Connection connection) throws SQLException;
    }

    /** Runs {@code work} on a pooled connection in auto-commit mode. */
    <T> T withConnection(String operation, SqlWork<T> work) {
        try (Connection connection = connection(operation)) {
            T result = work.run(connection);
            outages.answered();
            return result;
        } catch (SQLException e) {
            throw classified(operation, e);
        }
    }

    /**
     * What {@code e} means for the callers. A table missing before {@link #migrate()} has
     * succeeded is a store not ready yet (the gateway started while the database was away, and
     * its schema is applied once the database answers): as good as unreachable, not a fault.
     */
    private StoreException classified(String operation, SQLException e) {
        if (!migrated && MISSING_TABLE.contains(e.getSQLState())) {
            return new StoreException(StoreException.Reason.UNAVAILABLE,
                    operation + ": the store's schema is not applied yet (it is once the database answers)", e);
        }
        StoreException classified = StoreException.of(operation, e);
        if (classified.reason() == StoreException.Reason.UNAVAILABLE) {
            bypassPool = location instanceof StoreLocation.Postgres;
            outages.failed(DriverMessages.shortReason(e));
        }
        return classified;
    }

    /** H2's own isolation level beyond serializable's number: one snapshot of the whole database (org.h2.engine.Constants). */
    private static final int H2_SNAPSHOT = 6;

    /** The SQL states of a table that is not there: PostgreSQL's, and H2's (in a database with tables, and in an empty one). */
    private static final java.util.Set<String> MISSING_TABLE = java.util.Set.of("42P01", "42S02", "42S04");

    /** Runs {@code work} in one transaction: committed when it returns, rolled back when it throws. */
    <T> T inTransaction(String operation, SqlWork<T> work) {
        try (Connection connection = connection(operation)) {
            // The pool restores auto-commit when the connection goes back to it.
            connection.setAutoCommit(false);
            try {
                T result = work.run(connection);
                connection.commit();
                outages.answered();
                return result;
            } catch (SQLException | RuntimeException e) {
                rollback(connection, e);
                throw e;
            }
        } catch (SQLException e) {
            throw classified(operation, e);
        }
    }

    /**
     * Runs reads in one transaction that sees one state of the store throughout, so a write
     * landing meanwhile is seen by all of its statements or by none: PostgreSQL's repeatable
     * read; on H2, whose repeatable read takes each table's state when it is first read, its
     * snapshot level.
     */
    <T> T inSnapshot(String operation, SqlWork<T> work) {
        return inTransaction(operation, connection -> {
            // The pool restores the isolation level when the connection goes back to it.
            connection.setTransactionIsolation(engine() == Engine.H2 ? H2_SNAPSHOT : Connection.TRANSACTION_REPEATABLE_READ);
            return work.run(connection);
        });
    }

    /**
     * {@link #inTransaction}, one at a time in this process on the embedded store, and there
     * written to the store's file before this returns.
     *
     * <p>One at a time: H2 takes no lock on a row that is not there yet, so two upserts of the
     * same new row (a daily rollup's) would both insert it; one process owns an embedded store,
     * so holding its writers in line is enough. PostgreSQL's own upsert needs no such help.
     *
     * <p>Written to the file and forced to the disk: H2 keeps a committed transaction in memory
     * until its background writer's next pass, up to half a second later, and leaves the file to
     * the operating system's cache, so a process killed meanwhile, or a power loss within half a
     * minute, loses it. A caller that lets go of its own copy once this returns (the spend
     * journal's shipper) must not lose what it posted: {@code CHECKPOINT SYNC} writes it and
     * forces it first, once per transaction.
     */
    <T> T inWriterTransaction(String operation, SqlWork<T> work) {
        if (engine() != Engine.H2) {
            return inTransaction(operation, work);
        }
        embeddedWriter.lock();
        try {
            T result = inTransaction(operation, work);
            withConnection(operation + " (write to the file)", connection -> {
                try (java.sql.Statement statement = connection.createStatement()) {
                    return statement.execute("CHECKPOINT SYNC");
                }
            });
            return result;
        } finally {
            embeddedWriter.unlock();
        }
    }

    private Connection connection(String operation) throws SQLException {
        if (pool.isClosed()) {
            throw new StoreException(StoreException.Reason.FAILED, operation + ": the store is closed", null);
        }
        return borrow();
    }

    /** A connection of the pool; one of the database's own while the pool has none after an outage. */
    private Connection borrow() throws SQLException {
        if (bypassPool) {
            if (pool.getHikariPoolMXBean().getTotalConnections() == 0) {
                return unpooled.getConnection();
            }
            bypassPool = false;
        }
        return pool.getConnection();
    }

    private static void rollback(Connection connection, Exception cause) {
        try {
            connection.rollback();
        } catch (SQLException e) {
            cause.addSuppressed(e);
        }
    }
}
