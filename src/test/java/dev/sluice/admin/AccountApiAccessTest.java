package dev.sluice.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.admin.AccountApiServer.Answer;
import dev.sluice.store.Database;
import dev.sluice.store.StoreLocation;
import dev.sluice.store.VirtualKey;
import dev.sluice.testing.Ports;
import dev.sluice.testing.StoreTest;
import dev.sluice.testing.TestDatabases;
import dev.sluice.time.TimeSource;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Who may call the key and team API: the master key everything, a virtual key only its own
 * {@code /key/info}, nobody when no master key is set; and how a store that cannot be
 * reached is answered.
 */
class AccountApiAccessTest {
    /** Every admin route and a body it would accept from the master key. */
    private static final Map<String, String> ADMIN_POSTS = Map.of(
            "/key/generate", "{}",
            "/key/update", "{\"key\": \"sk-x\"}",
            "/key/delete", "{\"keys\": [\"sk-x\"]}",
            "/key/block", "{\"key\": \"sk-x\"}",
            "/key/unblock", "{\"key\": \"sk-x\"}",
            "/team/new", "{}",
            "/team/update", "{\"team_id\": \"t\"}",
            "/team/delete", "{\"team_ids\": [\"t\"]}");
    private static final List<String> ADMIN_GETS = List.of("/key/list", "/team/list");

    @StoreTest
    void withoutAMasterKeyNothingMayBeManaged(Database database) {
        try (AccountApiServer api = AccountApiServer.withoutMasterKey(database)) {
            ADMIN_POSTS.forEach((route, body) -> {
                Answer answer = api.post(route, body, null);
                assertThat(answer.status()).as(route).isEqualTo(403);
                assertThat(answer.errorCode()).as(route).isEqualTo("master_key_required");
                assertThat(answer.errorType()).as(route).isEqualTo("permission_error");
            });
            for (String route : List.of("/key/list", "/key/info?key=sk-x", "/team/list")) {
                assertThat(api.get(route, null).errorCode()).as(route).isEqualTo("master_key_required");
            }
            assertThat(api.post("/key/generate", "{}", null).errorMessage())
                    .isEqualTo("Managing keys needs a master key: set general_settings.master_key.");
            assertThat(api.post("/team/new", "{}", null).errorMessage())
                    .isEqualTo("Managing teams needs a master key: set general_settings.master_key.");
            assertThat(api.changes()).isEmpty();
        }
    }

    @StoreTest
    void aRefusedCredentialIsAnsweredAsAuthenticationAnsweredIt(Database database) {
        try (AccountApiServer api = AccountApiServer.start(database)) {
            Answer none = api.post("/key/generate", "{}", null);
            assertThat(none.status()).isEqualTo(401);
            assertThat(none.errorType()).isEqualTo("authentication_error");
            assertThat(none.errorMessage()).isEqualTo("No API key passed in.");

            Answer unknown = api.get("/key/info", "sk-not-a-key");
            assertThat(unknown.status()).isEqualTo(401);
            assertThat(unknown.errorMessage()).isEqualTo("Invalid API key.");
            assertThat(api.get("/key/list").body().get("total_count").asLong()).isZero();
        }
    }

    @StoreTest
    void aVirtualKeyMayCallNoAdminRoute(Database database) {
        try (AccountApiServer api = AccountApiServer.start(database)) {
            String key = api.post("/key/generate", "{\"key_alias\": \"bot\"}").body().get("key").asText();

            ADMIN_POSTS.forEach((route, body) -> {
                Answer answer = api.post(route, body, key);
                assertThat(answer.status()).as(route).isEqualTo(403);
                assertThat(answer.errorCode()).as(route).isEqualTo("permission_error");
                assertThat(answer.errorMessage()).as(route).startsWith(route + " needs the master key")
                        .contains("bot (sk-..." + key.substring(key.length() - 4) + ")");
            });
            for (String route : ADMIN_GETS) {
                Answer answer = api.get(route, key);
                assertThat(answer.status()).as(route).isEqualTo(403);
                assertThat(answer.errorMessage()).as(route).startsWith(route.replaceAll("\\?.*", "") + " needs the master key");
            }
            assertThat(api.get("/key/list").body().get("total_count").asLong()).isEqualTo(1);
            assertThat(api.changes()).hasSize(1);
        }
    }

    @StoreTest
    void aVirtualKeyReadsItsOwnInfoAndNoOtherKeys(Database database) {
        try (AccountApiServer api = AccountApiServer.start(database)) {
            String key = api.post("/key/generate", "{\"max_budget\": 3}").body().get("key").asText();
            String token = VirtualKey.hash(key);
            String other = api.post("/key/generate", "{}").body().get("key").asText();

            Answer implicit = api.get("/key/info", key);
            assertThat(implicit.status()).isEqualTo(200);
            assertThat(implicit.body().get("key").asText()).isEqualTo(token);
            assertThat(implicit.body().at("/info/token").asText()).isEqualTo(token);
            assertThat(implicit.body().at("/info/max_budget").asText()).isEqualTo("3");
            assertThat(api.get("/key/info?key=" + key, key).body().get("key").asText()).isEqualTo(key);
            assertThat(api.get("/key/info?key=" + token, key).status()).isEqualTo(200);

            for (String asked : List.of(other, VirtualKey.hash(other))) {
                Answer refused = api.get("/key/info?key=" + asked, key);
                assertThat(refused.status()).as(asked).isEqualTo(403);
                assertThat(refused.errorCode()).as(asked).isEqualTo("permission_error");
                assertThat(refused.text()).as(asked).doesNotContain(asked);
            }
            // As LiteLLM's tests have it: a key that was never issued is not found, whoever asks.
            Answer unknown = api.get("/key/info?key=sk-never-issued", key);
            assertThat(unknown.status()).isEqualTo(404);
            assertThat(unknown.errorCode()).isEqualTo("key_not_found");
            assertThat(unknown.text()).doesNotContain("sk-never-issued");
        }
    }

    @Test
    void aStoreThatCannotBeReachedIsA503NamingWhy() {
        int port = Ports.refusing();
        StoreLocation nowhere = StoreLocation.Postgres.parse("postgresql://postgres@127.0.0.1:" + port + "/sluice");
        try (Database database = Database.connect(nowhere, TestDatabases.OPTIONS.withConnectionTimeout(Duration.ofMillis(500)), TimeSource.system().ticker());
                AccountApiServer api = AccountApiServer.start(database)) {
            long started = System.nanoTime();
            Answer generated = api.post("/key/generate", "{\"max_budget\": 1}");

            assertThat(generated.status()).isEqualTo(503);
            assertThat(generated.errorCode()).isEqualTo("store_unavailable");
            assertThat(generated.errorMessage()).isEqualTo("The key store cannot be reached (insert key: Connection to 127.0.0.1:"
                    + port + " refused); try again.");
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(2));
            assertThat(api.get("/key/list").errorCode()).isEqualTo("store_unavailable");
            assertThat(api.post("/team/new", "{}").status()).isEqualTo(503);
            assertThat(api.changes()).isEmpty();
        }
    }
}
