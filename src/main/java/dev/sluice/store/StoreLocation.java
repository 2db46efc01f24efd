package dev.sluice.store;

import dev.sluice.config.Secret;
import dev.sluice.model.Required;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Collectors;

/**
 * Where keys, teams and spend are kept: an embedded H2 file, or a PostgreSQL server named
 * by LiteLLM's {@code database_url}.
 */
public sealed interface StoreLocation permits StoreLocation.Embedded, StoreLocation.Postgres {

    /** The embedded file used when none is given: {@code ./sluice-data/sluice.mv.db}. */
    Path DEFAULT_EMBEDDED_FILE = Path.of("sluice-data", "sluice");

    /**
     * The location a config names: PostgreSQL when {@code databaseUrl} (from
     * {@code general_settings.database_url}, else {@code DATABASE_URL}) is set, the embedded
     * file otherwise.
     *
     * @throws IllegalArgumentException when the URL is not a PostgreSQL URL LiteLLM accepts
     */
    static StoreLocation of(Optional<Secret> databaseUrl, Path embeddedFile) {
        return databaseUrl.<StoreLocation>map(url -> Postgres.parse(url.value())).orElseGet(() -> embedded(embeddedFile));
    }

    static Embedded embedded(Path file) {
        return new Embedded(file);
    }

    Engine engine();

    /** JDBC's form of the location, holding no password. */
    String jdbcUrl();

    /** The location for logs and messages: no password, no query parameters. */
    String describe();

    /**
     * An H2 database in one file, {@code <file>.mv.db}, opened in H2's PostgreSQL mode with
     * lower-case identifiers, so the PostgreSQL schema and statements run on it unchanged.
     */
    record Embedded(Path file) implements StoreLocation {
        private static final String SUFFIX = ".mv.db";
        /**
         * H2's page cache, in KB (its default is 16 MB). The spend log's blocks are written
         * once and read back only for reports and start-up sums, yet a large cache keeps the
         * newest of them in the heap, where they outlive young collections and fill the old
         * generation of the gateway's small heap (full collections every few seconds on the
         * keyed path). Keys are cached above the store, so nothing hot needs more than this.
         */
        private static final int CACHE_KB = 2048;

        public Embedded {
            Objects.requireNonNull(file, "file");
            String name = file.getFileName() == null ? "" : file.getFileName().toString();
            if (name.endsWith(SUFFIX)) {
                name = name.substring(0, name.length() - SUFFIX.length());
                file = file.resolveSibling(name);
            }
            if (name.isEmpty() || file.toString().contains(";")) {
                throw new IllegalArgumentException("embedded database file: " + file
                        + " (expected: a file path without ';', e.g. sluice-data/sluice)");
            }
            file = file.toAbsolutePath().normalize();
        }

        @Override
        public Engine engine() {
            return Engine.H2;
        }

        /**
         * H2 in PostgreSQL's mode, with a small page cache, left open at the JVM's exit: H2's own
         * exit hook would close the database while the gateway's drain still ships spend rows
         * (each shipped batch is a committed transaction, and what is not shipped stays in the
         * journal for the next start).
         */
        @Override
        public String jdbcUrl() {
            return "jdbc:h2:file:" + file + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH;CACHE_SIZE=" + CACHE_KB
                    + ";DB_CLOSE_ON_EXIT=FALSE";
        }

        @Override
        public String describe() {
            return "H2 file " + file + SUFFIX;
        }
    }

    /**
     * A PostgreSQL server, from LiteLLM's URL form
     * {@code postgresql://user:password@host:port/database?param=value} ({@code postgres://}
     * too). User, password and database are percent-decoded; the password may be empty or
     * absent. Query parameters go to the driver as they are (e.g. {@code sslmode=require}),
     * except the two of Prisma's that LiteLLM users write: {@code schema} becomes the
     * driver's {@code currentSchema}, and {@code connection_limit} sizes the pool.
     *
     * @param user      empty for the driver's default (the operating-system user)
     * @param schemas   from {@code schema} or {@code currentSchema}: where the tables go
     *                  (created if missing); empty for the server's default search path
     * @param poolSize  from {@code connection_limit}, else the pool's default
     */
    record Postgres(String jdbcUrl, Optional<String> user, Optional<Secret> password, List<String> schemas,
                    OptionalInt poolSize, String describe) implements StoreLocation {
        private static final String EXPECTED =
                "expected: postgresql://user:password@host:port/database, or postgres://...";

        public Postgres {
            Required.nonNull("jdbcUrl, user, password, poolSize, describe", jdbcUrl, user, password, poolSize, describe);
            schemas = List.copyOf(schemas);
        }

        /** Reads LiteLLM's URL form; the message of a refusal never shows the password. */
        public static Postgres parse(String url) {
            Objects.requireNonNull(url, "url");
            String rest;
            if (url.startsWith("postgresql://")) {
                rest = url.substring("postgresql://".length());
            } else if (url.startsWith("postgres://")) {
                rest = url.substring("postgres://".length());
            } else {
                int colon = url.indexOf("://");
                String shown = colon > 0 ? "a URL of scheme " + url.substring(0, colon) : "not a URL";
                throw new IllegalArgumentException("database_url: " + shown + " (" + EXPECTED + ")");
            }

            String query = "";
            int at = rest.lastIndexOf('@');
            int mark = rest.indexOf('?', Math.max(at, 0));
            if (mark >= 0) {
                query = rest.substring(mark + 1);
                rest = rest.substring(0, mark);
            }
            Optional<String> user = Optional.empty();
            Optional<Secret> password = Optional.empty();
            if (at >= 0) {
                String userInfo = rest.substring(0, at);
                rest = rest.substring(at + 1);
                int colon = userInfo.indexOf(':');
                String name = decode(colon >= 0 ? userInfo.substring(0, colon) : userInfo);
                String secret = colon >= 0 ? decode(userInfo.substring(colon + 1)) : "";
                user = name.isEmpty() ? Optional.empty() : Optional.of(name);
                password = secret.isEmpty() ? Optional.empty() : Optional.of(new Secret(secret));
            }
            int slash = rest.indexOf('/');
            String hosts = slash >= 0 ? rest.substring(0, slash) : rest;
            String database = slash >= 0 ? decode(rest.substring(slash + 1)) : "";
            checkHosts(hosts);

            Map<String, String> params = new LinkedHashMap<>();
            OptionalInt poolSize = OptionalInt.empty();
            for (String pair : query.split("&")) {
                if (pair.isEmpty()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                String name = decode(eq >= 0 ? pair.substring(0, eq) : pair);
                String value = eq >= 0 ? decode(pair.substring(eq + 1)) : "";
                switch (name) {
                    case "schema" -> params.put("currentSchema", value);
                    case "connection_limit" -> poolSize = OptionalInt.of(positive(name, value));
                    default -> params.put(name, value);
                }
            }
            params.putIfAbsent("ApplicationName", "sluice");
            List<String> schemas = params.containsKey("currentSchema")
                    ? Arrays.stream(params.get("currentSchema").split(",")).map(String::strip).filter(n -> !n.isEmpty()).toList()
                    : List.of();

            String jdbcUrl = "jdbc:postgresql://" + hosts + "/" + encode(database) + "?" + params.entrySet().stream()
                    .map(e -> encode(e.getKey()) + "=" + encode(e.getValue()))
                    .collect(Collectors.joining("&"));
            String describe = "postgresql://" + user.map(u -> u + "@").orElse("") + hosts + "/" + database;
            return new Postgres(jdbcUrl, user, password, schemas, poolSize, describe);
        }

        @Override
        public Engine engine() {
            return Engine.POSTGRESQL;
        }

        private static void checkHosts(String hosts) {
            if (hosts.isEmpty()) {
                throw new IllegalArgumentException("database_url: no host (" + EXPECTED + ")");
            }
            for (String host : hosts.split(",")) {
                int close = host.lastIndexOf(']');
                int colon = host.lastIndexOf(':');
                if (colon <= close) {
                    continue;  // no port: the driver's default, 5432
                }
                String port = host.substring(colon + 1);
                if (!port.matches("\\d{1,5}") || Integer.parseInt(port) < 1 || Integer.parseInt(port) > 65535) {
                    throw new IllegalArgumentException("database_url: port " + port + " of host "
                            + host.substring(0, colon) + " (expected: a port from 1 to 65535)");
                }
            }
        }

        private static int positive(String name, String value) {
            try {
                int n = Integer.parseInt(value);
                if (n > 0) {
                    return n;
                }
            } catch (NumberFormatException ignored) {
                // reported below
            }
            throw new IllegalArgumentException("database_url: " + name + "=" + value + " (expected: an integer > 0)");
        }

        /** Percent-decoding of a URL part; unlike form decoding, '+' stays a plus sign. */
        private static String decode(String part) {
            try {
                return URLDecoder.decode(part.replace("+", "%2B"), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("database_url: a part holds a malformed %-escape (" + EXPECTED
                        + ", with reserved characters in the password written as %XX)");
            }
        }

        private static String encode(String part) {
            return URLEncoder.encode(part, StandardCharsets.UTF_8).replace("+", "%20");
        }
    }
}
