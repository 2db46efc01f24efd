package dev.sluice.testing;

import dev.sluice.store.Engine;
import dev.sluice.store.StoreLocation;
import dev.sluice.store.StoreOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Fresh stores for tests, on either engine. Each {@link TestDatabase} is isolated: H2 gets
 * a new temporary folder; PostgreSQL gets a new schema {@code t_<random>} on the test
 * server ({@link PostgresServer}: the local one on 127.0.0.1:5432 when it answers, else an
 * embedded one started once per JVM), named in the URL's {@code currentSchema}, and
 * dropped on close.
 *
 * <pre>{@code
 * try (TestDatabase store = TestDatabases.fresh(Engine.POSTGRESQL)) {
 *     KeyRepository keys = new KeyRepository(store.database());
 *     ...
 * }
 * }</pre>
 *
 * Tests that should run on both engines use {@link StoreTest} instead.
 */
public final class TestDatabases {
    /** Two seconds to connect: a test of an unreachable database fails fast. */
    public static final StoreOptions OPTIONS = StoreOptions.DEFAULTS.withConnectionTimeout(Duration.ofSeconds(2));

    private TestDatabases() {}

    public static TestDatabase fresh(Engine engine) {
        return switch (engine) {
            case H2 -> h2();
            case POSTGRESQL -> postgres();
        };
    }

    /** An H2 file in a new temporary folder, removed on close. */
    public static TestDatabase h2() {
        try {
            Path folder = Files.createTempDirectory("sluice-store-");
            return new TestDatabase(Engine.H2, StoreLocation.embedded(folder.resolve("sluice")),
                    () -> TestDatabase.deleteTree(folder));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A new, empty schema on the test PostgreSQL server, dropped on close. */
    public static TestDatabase postgres() {
        PostgresServer server = PostgresServer.get();
        String schema = newSchemaName();
        server.execute("CREATE SCHEMA " + schema);
        return new TestDatabase(Engine.POSTGRESQL,
                StoreLocation.Postgres.parse(server.url("currentSchema=" + schema)),
                () -> server.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE"), server.url("schema=" + schema));
    }

    /**
     * A location on the test PostgreSQL server named, as LiteLLM users write it, with
     * {@code ?schema=t_<random>} of a schema that does not exist yet; dropped on close.
     */
    public static TestDatabase postgresInMissingSchema() {
        PostgresServer server = PostgresServer.get();
        String schema = newSchemaName();
        return new TestDatabase(Engine.POSTGRESQL, StoreLocation.Postgres.parse(server.url("schema=" + schema)),
                () -> server.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE"));
    }

    private static String newSchemaName() {
        return "t_" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
    }

    /** LiteLLM's URL for the test PostgreSQL server's default schema, with extra query parameters. */
    public static String postgresUrl(String query) {
        return PostgresServer.get().url(query);
    }

    /** Where the test PostgreSQL server listens: the target of a {@link TcpProxy} in front of it. */
    public static InetSocketAddress postgresAddress() {
        return PostgresServer.get().address();
    }

    /** {@code local} (127.0.0.1:5432) or {@code embedded}: which PostgreSQL the tests use. */
    public static String postgresKind() {
        return PostgresServer.get().kind();
    }
}
