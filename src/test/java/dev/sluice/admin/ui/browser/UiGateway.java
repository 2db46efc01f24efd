package dev.sluice.admin.ui.browser;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.Chat;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.TestDatabase;
import dev.sluice.testing.TestDatabases;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The gateway the UI tests drive: the master key, a PostgreSQL store of its own, and real mock
 * upstreams on free ports — {@code alpha} and {@code backup} answer, both deployments of
 * {@code flaky} fail with 500s ({@code flaky} falls back to {@code alpha}, and a failure benches
 * a deployment for ten minutes, so a bench and a fallback show). The UI is served by the gateway
 * itself at {@code /ui}. A few calls are made at start, so the pages have calls, spend and a
 * bench to show; among them one of the virtual key {@link #readerKey()}, of the team {@code research}.
 * It holds one internal user, {@link #SEEDED_USER}, with a budget and a key of its own ({@code ui-seeded-key}).
 */
final class UiGateway implements AutoCloseable {
    static final String MASTER = "sk-ui-master-7f3a9c2e51d4";
    /** The upstream API keys in the config: never to be shown by the UI. */
    static final Map<String, String> DEPLOYMENT_KEYS = Map.of(
            "alpha-1", "sk-upstream-alpha-5d1e8b0c",
            "flaky-1", "sk-upstream-flaky-93c0aa71",
            "flaky-2", "sk-upstream-flaky-4be2d9f6",
            "backup-1", "sk-upstream-backup-27f4d1e3");
    /** A signed-out page asks for its session first, and is told 401 {@code no_session}: expected. */
    static final Expected NO_SESSION_YET = Expected.failure("GET", "/ui/api/session", 401);
    /** The internal user the gateway starts with: {@code seeded@example.com}, a $20 budget, one key. */
    static final String SEEDED_USER = "ui-seeded-user";

    final MockUpstream alpha;
    final MockUpstream backup;
    final MockUpstream failing;
    private final TestDatabase store;
    private final TestGateway gateway;
    private final String readerKey;
    private final String seededUserKey;

    private UiGateway(MockUpstream alpha, MockUpstream backup, MockUpstream failing, TestDatabase store, TestGateway gateway) {
        this.alpha = alpha;
        this.backup = backup;
        this.failing = failing;
        this.store = store;
        this.gateway = gateway;
        // A fresh schema takes its migrations in the background once they outlast the start-up's
        // wait (a loaded machine): the store answers 503 store_unavailable until they are done.
        Eventually.until("the store's schema is applied", Duration.ofSeconds(60), () -> get("/team/list").statusCode() == 200);
        String team = json(post("/team/new", "{\"team_alias\": \"research\", \"max_budget\": 50, \"budget_duration\": \"30d\"}"))
                .path("team_id").asText();
        this.readerKey = json(post("/key/generate", """
                {"key_alias": "ui-reader", "team_id": "%s", "max_budget": 10, "rpm_limit": 60}""".formatted(team)))
                .path("key").asText();
        this.seededUserKey = json(post("/user/new", """
                {"user_id": "%s", "user_email": "seeded@example.com", "user_role": "internal_user_viewer", "max_budget": 20,
                 "key_alias": "ui-seeded-key"}""".formatted(SEEDED_USER))).path("key").asText();
    }

    static UiGateway start() {
        MockUpstream alpha = MockUpstream.start(MockOptions.defaults("alpha", MockMode.OK));
        MockUpstream backup = MockUpstream.start(MockOptions.defaults("backup", MockMode.OK));
        MockUpstream failing = MockUpstream.start(MockOptions.defaults("failing", MockMode.FAIL));
        TestDatabase store = TestDatabases.postgres();
        String yaml = """
                model_list:
                  - {model_name: alpha, litellm_params: {model: openai/gpt-4o-mini, api_base: "%s", api_key: %s}, model_info: {id: alpha-1}}
                  - {model_name: flaky, litellm_params: {model: openai/gpt-4o, api_base: "%s", api_key: %s}, model_info: {id: flaky-1}}
                  - {model_name: flaky, litellm_params: {model: openai/gpt-4o, api_base: "%s", api_key: %s}, model_info: {id: flaky-2}}
                  - {model_name: backup, litellm_params: {model: openai/gpt-4o, api_base: "%s", api_key: %s}, model_info: {id: backup-1}}
                router_settings:
                  num_retries: 0
                  allowed_fails: 0
                  cooldown_time: 600
                  fallbacks: [{flaky: [alpha]}]
                general_settings:
                  master_key: %s
                  %s
                """.formatted(alpha.baseUrl(), DEPLOYMENT_KEYS.get("alpha-1"),
                failing.baseUrl(), DEPLOYMENT_KEYS.get("flaky-1"),
                failing.baseUrl(), DEPLOYMENT_KEYS.get("flaky-2"),
                backup.baseUrl(), DEPLOYMENT_KEYS.get("backup-1"),
                MASTER, store.generalSetting());
        TestGateway gateway = null;
        try {
            gateway = TestGateway.start(yaml);
            UiGateway ui = new UiGateway(alpha, backup, failing, store, gateway);
            ui.someTraffic();
            return ui;
        } catch (RuntimeException | AssertionError e) {
            if (gateway != null) {
                gateway.close();
            }
            store.close();
            alpha.close();
            backup.close();
            failing.close();
            throw e;
        }
    }

    private void someTraffic() {
        assertThat(chat(MASTER, "alpha", "Hello, alpha").statusCode()).isEqualTo(200);
        HttpResponse<String> fellBack = chat(MASTER, "flaky", "Hello, flaky");
        assertThat(fellBack.statusCode()).as(fellBack.body()).isEqualTo(200);
        assertThat(fellBack.headers().firstValue("x-litellm-model-group")).hasValue("alpha");
        assertThat(chat(readerKey, "alpha", "Hello from a virtual key").statusCode()).isEqualTo(200);
    }

    /** {@code http://127.0.0.1:<port><path>}. */
    String url(String path) {
        return gateway.baseUrl() + path;
    }

    /** The port the gateway listens on, at 127.0.0.1. */
    int port() {
        return gateway.port();
    }

    /** The key the gateway was started with for the reader: a virtual key that made one call. */
    String readerKey() {
        return readerKey;
    }

    /** A chat completion of {@code group} with {@code key}, over HTTP. */
    HttpResponse<String> chat(String key, String group, String message) {
        return gateway.post("/v1/chat/completions", Chat.body(group, message), "Authorization", "Bearer " + key);
    }

    /** GET with the master key. */
    HttpResponse<String> get(String path) {
        return gateway.get(path, "Authorization", "Bearer " + MASTER);
    }

    /** POST with the master key. */
    HttpResponse<String> post(String path, String body) {
        return gateway.post(path, body, "Authorization", "Bearer " + MASTER);
    }

    /** The answer's body as JSON, after checking it is a 200. */
    static JsonNode json(HttpResponse<String> answer) {
        assertThat(answer.statusCode()).as(answer.uri() + ": " + answer.body()).isEqualTo(200);
        try {
            return Json.parse(answer.body().getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The secrets no page may show: the master key, every upstream API key, the reader's and the seeded user's virtual keys. */
    Map<String, String> secrets() {
        Map<String, String> secrets = new LinkedHashMap<>();
        secrets.put("the master key", MASTER);
        DEPLOYMENT_KEYS.forEach((id, key) -> secrets.put("the API key of " + id, key));
        secrets.put("the virtual key ui-reader", readerKey);
        secrets.put("the virtual key ui-seeded-key of " + SEEDED_USER, seededUserKey);
        return secrets;
    }

    /** Leaves any session and opens the sign-in form. */
    void signedOut(Browser browser) {
        browser.driver().manage().deleteAllCookies();
        browser.open(url("/ui/"));
        browser.field("Master key");
    }

    /** Signs in through the form with {@code key} and waits for the first page's heading. */
    void signIn(Browser browser, String key, String firstPage) {
        signedOut(browser);
        browser.fill("Master key", key);
        browser.button("Sign in").click();
        browser.heading(firstPage);
    }

    @Override
    public void close() {
        try (MockUpstream a = alpha; MockUpstream b = backup; MockUpstream f = failing; TestDatabase s = store) {
            gateway.close();
        }
    }
}
