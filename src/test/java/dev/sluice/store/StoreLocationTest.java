package dev.sluice.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.config.Secret;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** database_url in LiteLLM's forms, and the embedded default. */
class StoreLocationTest {

    @Test
    void withoutADatabaseUrlTheStoreIsTheEmbeddedFile() {
        StoreLocation location = StoreLocation.of(Optional.empty(), StoreLocation.DEFAULT_EMBEDDED_FILE);

        assertThat(location).isInstanceOf(StoreLocation.Embedded.class);
        assertThat(location.engine()).isEqualTo(Engine.H2);
        assertThat(location.jdbcUrl())
                .startsWith("jdbc:h2:file:" + Path.of("sluice-data", "sluice").toAbsolutePath())
                .contains(";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE")
                .as("closed by the gateway, not by H2's exit hook while spend rows still ship").contains(";DB_CLOSE_ON_EXIT=FALSE");
        assertThat(location.describe()).endsWith("sluice-data/sluice.mv.db");
    }

    @Test
    void anEmbeddedFileMayBeNamedWithH2sSuffix() {
        assertThat(StoreLocation.embedded(Path.of("/var/lib/sluice/keys.mv.db")).file())
                .isEqualTo(Path.of("/var/lib/sluice/keys"));
    }

    @Test
    void anEmbeddedPathWithASemicolonIsRefused() {
        assertThatThrownBy(() -> StoreLocation.embedded(Path.of("/tmp/a;MODE=MySQL")))
                .hasMessage("embedded database file: /tmp/a;MODE=MySQL (expected: a file path without ';', e.g. sluice-data/sluice)");
    }

    @Test
    void aDatabaseUrlNamesPostgresql() {
        StoreLocation location = StoreLocation.of(Optional.of(new Secret("postgresql://llm:s3cret@db.internal:6432/litellm")),
                StoreLocation.DEFAULT_EMBEDDED_FILE);

        StoreLocation.Postgres postgres = (StoreLocation.Postgres) location;
        assertThat(postgres.engine()).isEqualTo(Engine.POSTGRESQL);
        assertThat(postgres.jdbcUrl()).isEqualTo("jdbc:postgresql://db.internal:6432/litellm?ApplicationName=sluice");
        assertThat(postgres.user()).contains("llm");
        assertThat(postgres.password()).contains(new Secret("s3cret"));
        assertThat(postgres.describe()).isEqualTo("postgresql://llm@db.internal:6432/litellm");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            postgres://u:p@h:5432/d                        | jdbc:postgresql://h:5432/d?ApplicationName=sluice
            postgresql://u@h/d                             | jdbc:postgresql://h/d?ApplicationName=sluice
            postgresql://h:5432/d                          | jdbc:postgresql://h:5432/d?ApplicationName=sluice
            postgresql://u:p@h:5432/d?sslmode=require      | jdbc:postgresql://h:5432/d?sslmode=require&ApplicationName=sluice
            postgresql://u:p@h/d?schema=litellm            | jdbc:postgresql://h/d?currentSchema=litellm&ApplicationName=sluice
            postgresql://u:p@h1:5432,h2:5433/d             | jdbc:postgresql://h1:5432,h2:5433/d?ApplicationName=sluice
            postgresql://u:p@[::1]:5432/d                  | jdbc:postgresql://[::1]:5432/d?ApplicationName=sluice
            postgresql://u:p@h/my%20db                     | jdbc:postgresql://h/my%20db?ApplicationName=sluice
            postgresql://u:p@h/d?ApplicationName=billing   | jdbc:postgresql://h/d?ApplicationName=billing
            """)
    void acceptsLitellmsUrlForms(String url, String jdbcUrl) {
        assertThat(StoreLocation.Postgres.parse(url).jdbcUrl()).isEqualTo(jdbcUrl);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            postgresql://postgres:@127.0.0.1:5432/test     | postgres |
            postgresql://postgres@127.0.0.1:5432/test      | postgres |
            postgresql://me:p%40ss%2Fw%3Ard@h/d            | me       | p@ss/w:rd
            postgresql://me:p@ss@h/d                       | me       | p@ss
            postgresql://me:a+b@h/d                        | me       | a+b
            """)
    void readsUserAndPasswordPercentDecodedAndAnEmptyPasswordAsNone(String url, String user, String password) {
        StoreLocation.Postgres location = StoreLocation.Postgres.parse(url);

        assertThat(location.user()).contains(user);
        assertThat(location.password().map(Secret::value)).isEqualTo(Optional.ofNullable(password));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            postgresql://u@h/d                               | []
            postgresql://u@h/d?schema=litellm                | [litellm]
            postgresql://u@h/d?currentSchema=a,%20b          | [a, b]
            """)
    void theSchemaInTheUrlIsWhereTheTablesGo(String url, String schemas) {
        assertThat(StoreLocation.Postgres.parse(url).schemas()).hasToString(schemas);
    }

    @Test
    void connectionLimitSizesThePoolInsteadOfReachingTheDriver() {
        StoreLocation.Postgres location = StoreLocation.Postgres.parse("postgresql://u:p@h/d?connection_limit=3");

        assertThat(location.poolSize()).isEqualTo(OptionalInt.of(3));
        assertThat(location.jdbcUrl()).doesNotContain("connection_limit");
    }

    @Test
    void thePasswordIsInNoFormMeantToBeShown() {
        StoreLocation.Postgres location = StoreLocation.Postgres.parse("postgresql://u:hunter2@h:5432/d?sslmode=require");

        assertThat(location.jdbcUrl()).doesNotContain("hunter2");
        assertThat(location.describe()).doesNotContain("hunter2").isEqualTo("postgresql://u@h:5432/d");
        assertThat(location.toString()).doesNotContain("hunter2");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            mysql://u:hunter2@h/d                 | database_url: a URL of scheme mysql (expected: postgresql://user:password@host:port/database, or postgres://...)
            hunter2                               | database_url: not a URL (expected: postgresql://user:password@host:port/database, or postgres://...)
            postgresql://u:hunter2@/d             | database_url: no host (expected: postgresql://user:password@host:port/database, or postgres://...)
            postgresql://u:hunter2@h:99999/d      | database_url: port 99999 of host h (expected: a port from 1 to 65535)
            postgresql://u:hunter2@h:x/d          | database_url: port x of host h (expected: a port from 1 to 65535)
            postgresql://u:hunter2@h/d?connection_limit=0 | database_url: connection_limit=0 (expected: an integer > 0)
            postgresql://u:hunter2%zz@h/d         | database_url: a part holds a malformed %-escape (expected: postgresql://user:password@host:port/database, or postgres://..., with reserved characters in the password written as %XX)
            """)
    void refusesOtherUrlsWithoutShowingThePassword(String url, String message) {
        assertThatThrownBy(() -> StoreLocation.Postgres.parse(url))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(message)
                .message().doesNotContain("hunter2");
    }
}
