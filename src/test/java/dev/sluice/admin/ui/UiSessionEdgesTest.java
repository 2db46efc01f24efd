package dev.sluice.admin.ui;

import static dev.sluice.admin.ui.SignIn.errorCode;
import static dev.sluice.admin.ui.SignIn.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.router.RouterEvents;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Admin UI sessions at their edges: a session's end, sessions across replicas, failed
 * sign-ins slowed down like any unknown key, and a gateway without a master key.
 */
class UiSessionEdgesTest {
    private static final String MASTER = UiSessionTest.MASTER;

    @Test
    void aSessionWorksUntilItsLastSecondAndIsThen401SessionExpired() {
        FakeClock clock = new FakeClock();
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start(UiSessionTest.config(upstream, MASTER, ""), Map.of(), RouterEvents.NONE,
                        clock)) {
            SignIn admin = SignIn.of(gateway, MASTER);
            assertThat(admin.body().path("expires_at").asText()).isEqualTo(FakeClock.START.plus(SessionSeal.LIFETIME).toString());

            clock.advance(SessionSeal.LIFETIME.minusSeconds(1));
            assertThat(admin.get(gateway, "/v1/models").statusCode()).isEqualTo(200);
            assertThat(gateway.get("/ui/api/session", "Cookie", admin.cookie()).statusCode()).isEqualTo(200);

            clock.advance(Duration.ofSeconds(1));
            HttpResponse<String> expired = admin.get(gateway, "/v1/models");
            assertThat(expired.statusCode()).isEqualTo(401);
            assertThat(errorCode(expired)).isEqualTo("session_expired");
            HttpResponse<String> current = gateway.get("/ui/api/session", "Cookie", admin.cookie());
            assertThat(current.statusCode()).isEqualTo(401);
            assertThat(errorCode(current)).isEqualTo("session_expired");
        }
    }

    @Test
    void aSessionOpensOnEveryReplicaWithTheSameMasterKeyAndOnNoOther() {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway one = TestGateway.start(UiSessionTest.config(upstream, MASTER, ""));
                TestGateway two = TestGateway.start(UiSessionTest.config(upstream, MASTER, ""));
                TestGateway changed = TestGateway.start(UiSessionTest.config(upstream, "sk-changed", ""))) {
            SignIn admin = SignIn.of(one, MASTER);

            HttpResponse<String> there = two.get("/ui/api/session", "Cookie", admin.cookieAt(two));
            assertThat(there.statusCode()).isEqualTo(200);
            assertThat(json(there).path("csrf_token").asText()).isEqualTo(admin.csrfToken());
            assertThat(admin.get(two, "/key/list").statusCode()).isEqualTo(200);

            // Behind a proxy that names the browser's address, each replica reads the cookie it set.
            HttpResponse<String> proxied = one.post("/ui/api/session", "{\"key\": \"" + MASTER + "\"}",
                    "X-Forwarded-Host", "gw.example.com:8443");
            String cookie = proxied.headers().firstValue("Set-Cookie").orElseThrow().split(";", 2)[0];
            assertThat(cookie).startsWith("sluice_session_8443=");
            assertThat(two.get("/ui/api/session", "Cookie", cookie, "X-Forwarded-Host", "gw.example.com:8443").statusCode())
                    .isEqualTo(200);
            assertThat(errorCode(two.get("/ui/api/session", "Cookie", cookie))).as("not the name for two's own address")
                    .isEqualTo("no_session");

            HttpResponse<String> otherKey = admin.get(changed, "/v1/models");
            assertThat(otherKey.statusCode()).isEqualTo(401);
            assertThat(errorCode(otherKey)).isEqualTo("session_expired");
        }
    }

    @Test
    void aSignInAnotherSitesPageCouldSendIsRefusedAndSetsNoCookie() {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start(UiSessionTest.config(upstream, MASTER, ""))) {
            String body = "{\"key\": \"" + MASTER + "\"}";
            HttpResponse<String> crossSite = gateway.post("/ui/api/session", body, "Sec-Fetch-Site", "cross-site");
            assertThat(crossSite.statusCode()).isEqualTo(403);
            assertThat(errorCode(crossSite)).isEqualTo("cross_site_request");
            assertThat(crossSite.headers().firstValue("Set-Cookie")).isEmpty();
            assertThat(gateway.post("/ui/api/session", body, "Sec-Fetch-Site", "same-site").statusCode())
                    .as("a sibling subdomain is another origin").isEqualTo(403);

            HttpResponse<String> plainText = gateway.send(java.net.http.HttpRequest.newBuilder(gateway.uri("/ui/api/session"))
                    .header("Content-Type", "text/plain").POST(java.net.http.HttpRequest.BodyPublishers.ofString(body)).build());
            assertThat(plainText.statusCode()).as("a form's text/plain body shaped as JSON").isEqualTo(415);
            assertThat(errorCode(plainText)).isEqualTo("unsupported_media_type");
            assertThat(plainText.headers().firstValue("Set-Cookie")).isEmpty();

            assertThat(gateway.post("/ui/api/session", body, "Sec-Fetch-Site", "same-origin").statusCode()).isEqualTo(200);
            assertThat(gateway.post("/ui/api/session", body, "Sec-Fetch-Site", "none").statusCode()).isEqualTo(200);
        }
    }

    @Test
    void wrongKeysAtSignInAreThrottledLikeAnyUnknownKey() {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start(UiSessionTest.config(upstream, MASTER,
                        "auth_failure_limit: 2\n  auth_failure_window_seconds: 600"))) {
            assertThat(SignIn.post(gateway, "sk-wrong-1").statusCode()).isEqualTo(401);
            assertThat(SignIn.post(gateway, "sk-wrong-2").statusCode()).isEqualTo(401);
            HttpResponse<String> throttled = SignIn.post(gateway, "sk-wrong-3");
            assertThat(throttled.statusCode()).isEqualTo(429);
            assertThat(errorCode(throttled)).isEqualTo("too_many_failed_authentications");
            assertThat(throttled.headers().firstValue("Retry-After")).isPresent();
            assertThat(SignIn.of(gateway, MASTER).body().path("role").asText()).as("the master key needs no look-up").isEqualTo("admin");
        }
    }

    @Test
    void withoutAMasterKeySignInIsA403ThatSaysSoAndWhileDrainingTheUiIsA503() {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s}}
                        """.formatted(upstream.baseUrl()))) {
            HttpResponse<String> answer = SignIn.post(gateway, "sk-anything");
            assertThat(answer.statusCode()).isEqualTo(403);
            assertThat(errorCode(answer)).isEqualTo("master_key_required");
            assertThat(json(answer).path("error").path("message").asText()).isEqualTo("The admin UI needs general_settings.master_key.");
            assertThat(gateway.get("/ui/").statusCode()).isEqualTo(200);

            gateway.refuseNewCalls();
            HttpResponse<String> draining = gateway.get("/ui/");
            assertThat(draining.statusCode()).as("the UI drains like every route").isEqualTo(503);
            assertThat(draining.headers().firstValue("Content-Security-Policy")).isPresent();
        }
    }
}
