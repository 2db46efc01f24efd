package dev.sluice.admin.ui;

import static dev.sluice.admin.ui.SignIn.errorCode;
import static dev.sluice.admin.ui.SignIn.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.Chat;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import java.net.http.HttpResponse;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Admin UI sessions on a running gateway with a store: signing in and out, the cookie's
 * flags, and the cookie as a credential on every route, honoured only with its CSRF token.
 */
class UiSessionTest {
    static final String MASTER = "sk-1234";

    private static MockUpstream upstream;
    private static TestGateway gateway;

    static String config(MockUpstream upstream, String master, String extra) {
        return """
                model_list:
                  - {model_name: g, litellm_params: {model: openai/a, api_base: %s}}
                  - {model_name: other, litellm_params: {model: openai/b, api_base: %1$s}}
                general_settings:
                  master_key: %s
                  %s
                """.formatted(upstream.baseUrl(), master, extra);
    }

    @BeforeAll
    static void start() {
        upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
        gateway = TestGateway.start(config(upstream, MASTER, ""));
    }

    @AfterAll
    static void stop() {
        gateway.close();
        upstream.close();
    }

    @Test
    void theMasterKeyOpensAnAdminSessionWhoseCookieIsHttpOnlyStrictAndSecureOnlyOverTls() {
        SignIn admin = SignIn.of(gateway, MASTER);

        assertThat(admin.body().path("role").asText()).isEqualTo("admin");
        assertThat(admin.body().path("key_alias").isNull()).isTrue();
        assertThat(admin.body().path("key_name").isNull()).isTrue();
        assertThat(admin.csrfToken()).isNotEmpty();
        Instant expires = Instant.parse(admin.body().path("expires_at").asText());
        assertThat(expires).isBetween(Instant.now().plus(SessionSeal.LIFETIME).minusSeconds(60),
                Instant.now().plus(SessionSeal.LIFETIME));
        assertThat(admin.setCookie()).startsWith(SignIn.cookieName(gateway) + "=")
                .contains("; Path=/; HttpOnly; SameSite=Strict").endsWith("; Max-Age=28800").doesNotContain("Secure")
                .doesNotContain(MASTER);
        assertThat(admin.body().toString()).doesNotContain(MASTER);

        HttpResponse<String> proxied = gateway.post("/ui/api/session", "{\"key\": \"" + MASTER + "\"}", "X-Forwarded-Proto", "https");
        assertThat(proxied.headers().firstValue("Set-Cookie").orElseThrow()).contains("; Secure");
        // Named after the address the browser used: a proxy's X-Forwarded-Host over this replica's own Host.
        String body = "{\"key\": \"" + MASTER + "\"}";
        assertThat(gateway.post("/ui/api/session", body, "X-Forwarded-Host", "gw.example.com:8443, 10.0.0.5:4000")
                .headers().firstValue("Set-Cookie").orElseThrow()).startsWith("sluice_session_8443=");
        assertThat(gateway.post("/ui/api/session", body, "X-Forwarded-Host", "gw.example.com")
                .headers().firstValue("Set-Cookie").orElseThrow()).startsWith("sluice_session=");
        assertThat(proxied.headers().firstValue("Content-Security-Policy")).contains(UiHeaders.CONTENT_SECURITY_POLICY);
        assertThat(proxied.headers().firstValue("Cache-Control")).contains("no-store");
    }

    @Test
    void getTellsTheSessionWithoutTheTokenAndDeleteNeedsItAndClearsTheCookie() {
        SignIn admin = SignIn.of(gateway, MASTER);

        HttpResponse<String> current = gateway.get("/ui/api/session", "Cookie", admin.cookie());
        assertThat(current.statusCode()).isEqualTo(200);
        assertThat(json(current).path("role").asText()).isEqualTo("admin");
        assertThat(json(current).path("csrf_token").asText()).isEqualTo(admin.csrfToken());
        assertThat(json(current).path("expires_at").asText()).isEqualTo(admin.body().path("expires_at").asText());

        HttpResponse<String> none = gateway.get("/ui/api/session");
        assertThat(none.statusCode()).isEqualTo(401);
        assertThat(errorCode(none)).isEqualTo("no_session");

        HttpResponse<String> withoutToken = admin.send(gateway, "DELETE", "/ui/api/session");
        assertThat(withoutToken.statusCode()).isEqualTo(403);
        assertThat(errorCode(withoutToken)).isEqualTo("csrf_token_invalid");
        HttpResponse<String> signedOut = admin.send(gateway, "DELETE", "/ui/api/session", "X-CSRF-Token", admin.csrfToken());
        assertThat(signedOut.statusCode()).isEqualTo(204);
        assertThat(signedOut.headers().allValues("Set-Cookie")).as("this port's cookie, and the bare name of older versions")
                .containsExactly(SignIn.cookieName(gateway) + "=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0",
                        "sluice_session=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0");

        assertThat(admin.send(gateway, "PUT", "/ui/api/session").statusCode()).isEqualTo(405);
    }

    @Test
    void aWrongKeyIs401InvalidKeyAndABadBodyA400() {
        HttpResponse<String> wrong = SignIn.post(gateway, "sk-not-a-key");
        assertThat(wrong.statusCode()).isEqualTo(401);
        assertThat(errorCode(wrong)).isEqualTo("invalid_key");
        assertThat(wrong.headers().firstValue("Set-Cookie")).isEmpty();

        assertThat(gateway.post("/ui/api/session", "{}").statusCode()).isEqualTo(400);
        assertThat(gateway.post("/ui/api/session", "{\"key\": 5}").statusCode()).isEqualTo(400);
        assertThat(gateway.post("/ui/api/session", "{\"key\": \" \"}").statusCode()).isEqualTo(400);
        HttpResponse<String> notJson = gateway.post("/ui/api/session", "{key");
        assertThat(notJson.statusCode()).isEqualTo(400);
        assertThat(errorCode(notJson)).isEqualTo("invalid_json");
    }

    @Test
    void theCookieActsOnlyWithItsTokenAndAKeyHeaderAlwaysWins() {
        SignIn admin = SignIn.of(gateway, MASTER);

        assertThat(admin.get(gateway, "/key/list").statusCode()).isEqualTo(200);
        assertThat(admin.get(gateway, "/v1/models").statusCode()).isEqualTo(200);

        HttpResponse<String> noToken = gateway.get("/key/list", "Cookie", admin.cookie());
        assertThat(noToken.statusCode()).isEqualTo(403);
        assertThat(errorCode(noToken)).isEqualTo("csrf_token_invalid");
        HttpResponse<String> wrongToken = gateway.get("/v1/models", "Cookie", admin.cookie(), "X-CSRF-Token", "x" + admin.csrfToken());
        assertThat(wrongToken.statusCode()).isEqualTo(403);
        assertThat(errorCode(wrongToken)).isEqualTo("csrf_token_invalid");
        HttpResponse<String> otherSessionsToken = gateway.get("/v1/models", "Cookie", admin.cookie(),
                "X-CSRF-Token", SignIn.of(gateway, MASTER).csrfToken());
        assertThat(otherSessionsToken.statusCode()).isEqualTo(403);
        HttpResponse<String> chat = gateway.post("/v1/chat/completions", Chat.body("g", "hi"), "Cookie", admin.cookie());
        assertThat(chat.statusCode()).isEqualTo(403);
        assertThat(errorCode(chat)).isEqualTo("csrf_token_invalid");

        // A key header wins: a virtual key's header with the admin's cookie is the virtual key, and a
        // broken cookie beside a key header is never read.
        String key = json(gateway.post("/key/generate", "{\"models\": [\"g\"]}", "Authorization", "Bearer " + MASTER))
                .path("key").asText();
        assertThat(gateway.get("/key/list", "Cookie", admin.cookie(), "X-CSRF-Token", admin.csrfToken(),
                "Authorization", "Bearer " + key).statusCode()).isEqualTo(403);
        assertThat(gateway.get("/key/list", "Cookie", SignIn.cookieName(gateway) + "=broken", "x-api-key", MASTER).statusCode()).isEqualTo(200);
    }

    @Test
    void readinessShowsTheDatabasesLocationToAnAdminSessionAndNeverFailsOverACookie() {
        SignIn admin = SignIn.of(gateway, MASTER);

        HttpResponse<String> detailed = admin.get(gateway, "/health/readiness");
        assertThat(detailed.statusCode()).isEqualTo(200);
        assertThat(json(detailed).has("db_location")).isTrue();
        HttpResponse<String> noToken = gateway.get("/health/readiness", "Cookie", admin.cookie());
        assertThat(noToken.statusCode()).isEqualTo(200);
        assertThat(json(noToken).has("db_location")).isFalse();
        assertThat(gateway.get("/health/readiness", "Cookie", SignIn.cookieName(gateway) + "=broken").statusCode()).isEqualTo(200);
    }

    @Test
    void aTamperedCookieIs401SessionExpired() {
        SignIn admin = SignIn.of(gateway, MASTER);
        String value = admin.cookie().substring(SignIn.cookieName(gateway).length() + 1);
        char last = value.charAt(value.length() - 5);
        String tampered = SignIn.cookieName(gateway) + "=" + value.substring(0, value.length() - 5) + (last == 'A' ? 'B' : 'A')
                + value.substring(value.length() - 4);

        HttpResponse<String> call = gateway.get("/v1/models", "Cookie", tampered, "X-CSRF-Token", admin.csrfToken());
        assertThat(call.statusCode()).isEqualTo(401);
        assertThat(errorCode(call)).isEqualTo("session_expired");
        HttpResponse<String> current = gateway.get("/ui/api/session", "Cookie", tampered);
        assertThat(current.statusCode()).isEqualTo(401);
        assertThat(errorCode(current)).isEqualTo("session_expired");
        assertThat(gateway.get("/v1/models", "Cookie", SignIn.cookieName(gateway) + "=" + MASTER, "X-CSRF-Token", "x").statusCode())
                .as("a bare key as the cookie").isEqualTo(401);
    }

    @Test
    void aVirtualKeysSessionIsRoleKeyAndMayDoOnlyWhatItsKeyMayUntilTheKeyIsBlocked() {
        JsonNode generated = json(gateway.post("/key/generate", "{\"models\": [\"g\"], \"key_alias\": \"ui-bot\"}",
                "Authorization", "Bearer " + MASTER));
        String key = generated.path("key").asText();
        SignIn session = SignIn.of(gateway, key);

        assertThat(session.body().path("role").asText()).isEqualTo("key");
        assertThat(session.body().path("key_alias").asText()).isEqualTo("ui-bot");
        assertThat(session.body().path("key_name").asText()).isEqualTo("sk-..." + key.substring(key.length() - 4));
        assertThat(session.body().toString()).doesNotContain(key);

        assertThat(session.get(gateway, "/key/list").statusCode()).isEqualTo(403);
        assertThat(session.get(gateway, "/key/info").statusCode()).isEqualTo(200);
        assertThat(json(session.get(gateway, "/v1/models")).path("data").findValuesAsText("id")).containsExactly("g");
        assertThat(session.post(gateway, "/v1/chat/completions", Chat.body("other", "hi")).statusCode()).isEqualTo(403);

        HttpResponse<String> streamed = session.post(gateway, "/v1/chat/completions", Chat.stream("g", "hi"));
        assertThat(streamed.statusCode()).as(streamed.body()).isEqualTo(200);
        assertThat(streamed.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/event-stream");
        assertThat(streamed.body()).contains("data: [DONE]");

        assertThat(gateway.post("/key/block", "{\"key\": \"" + key + "\"}", "Authorization", "Bearer " + MASTER).statusCode())
                .isEqualTo(200);
        assertThat(gateway.get("/ui/api/session", "Cookie", session.cookie()).statusCode()).isEqualTo(401);
        assertThat(session.post(gateway, "/v1/chat/completions", Chat.body("g", "hi")).statusCode()).isEqualTo(401);
        assertThat(SignIn.post(gateway, key).statusCode()).isEqualTo(401);
    }
}
