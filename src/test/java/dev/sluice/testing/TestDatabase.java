package dev.sluice.testing;

import dev.sluice.store.Database;
import dev.sluice.store.Engine;
import dev.sluice.store.StoreLocation;
import dev.sluice.store.StoreOptions;
import dev.sluice.time.TimeSource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A store of its own for one test: an H2 file in a new temporary folder, or a new schema in
 * the test PostgreSQL server. {@link #close()} closes whatever was opened on it and removes
 * the folder or drops the schema.
 */
public final class TestDatabase implements AutoCloseable {
    private final Engine engine;
    private final StoreLocation location;
    private final Runnable cleanup;
    private final String postgresUrl;
    private final List<Database> opened = new ArrayList<>();
    private Database database;

    TestDatabase(Engine engine, StoreLocation location, Runnable cleanup) {
        this(engine, location, cleanup, null);
    }

    /** @param postgresUrl LiteLLM's form of a PostgreSQL location, for a gateway's config */
    TestDatabase(Engine engine, StoreLocation location, Runnable cleanup, String postgresUrl) {
        this.engine = engine;
        this.location = location;
        this.cleanup = cleanup;
        this.postgresUrl = postgresUrl;
    }

    public Engine engine() {
        return engine;
    }

    /** Where the store is; nothing is created there until something opens it. */
    public StoreLocation location() {
        return location;
    }

    /**
     * The {@code general_settings} entry that points a gateway at this store, as YAML:
     * {@code database_url: postgresql://...} or {@code store_path: /tmp/.../sluice}.
     */
    public String generalSetting() {
        return switch (location) {
            case StoreLocation.Embedded embedded -> "store_path: \"" + embedded.file() + "\"";
            case StoreLocation.Postgres postgres -> "database_url: \"" + postgresUrl + "\"";
        };
    }

    /** The {@code database_url} entry of a gateway reaching this PostgreSQL store through {@code port} (a {@link TcpProxy}). */
    public String generalSettingThrough(int port) {
        if (!(location instanceof StoreLocation.Postgres postgres)) {
            throw new IllegalStateException("generalSettingThrough: a PostgreSQL store only; this one is " + engine);
        }
        return "database_url: \"" + PostgresServer.get().urlThrough(port, "schema=" + String.join(",", postgres.schemas())) + "\"";
    }

    /** The store, opened and migrated on first use with {@link TestDatabases#OPTIONS}. */
    public synchronized Database database() {
        if (database == null) {
            database = open();
        }
        return database;
    }

    /** Another pool on the same store, migrated: as a second process or a restart would open it. */
    public synchronized Database open() {
        Database opening = Database.open(location, TestDatabases.OPTIONS, TimeSource.system().ticker());
        opened.add(opening);
        return opening;
    }

    /** A pool on the same store, not migrated. */
    public synchronized Database connect() {
        Database connecting = Database.connect(location, TestDatabases.OPTIONS, TimeSource.system().ticker());
        opened.add(connecting);
        return connecting;
    }

    /**
     * Another pool on this PostgreSQL schema, migrated, reaching the server through
     * {@code port} on its host: a {@link TcpProxy} in front of it, to cut and restore.
     */
    public synchronized Database openThrough(int port, StoreOptions options) {
        if (!(location instanceof StoreLocation.Postgres postgres)) {
            throw new IllegalStateException("openThrough: a PostgreSQL store only; this one is " + engine);
        }
        String query = postgres.schemas().isEmpty() ? "" : "currentSchema=" + String.join(",", postgres.schemas());
        Database opening = Database.open(StoreLocation.Postgres.parse(PostgresServer.get().urlThrough(port, query)), options, TimeSource.system().ticker());
        opened.add(opening);
        return opening;
    }

    @Override
    public synchronized void close() {
        opened.forEach(Database::close);
        opened.clear();
        database = null;
        cleanup.run();
    }

    @Override
    public String toString() {
        return engine.name().toLowerCase();
    }

    public static void deleteTree(Path folder) {
        if (!Files.exists(folder)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(folder)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
