package dev.sluice.ui.browser;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.Eventually;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;

/**
 * What an admin does in the UI, checked through the API and the upstreams: a key created in
 * the Keys page exists for {@code /key/info} and its secret is gone from the page once shown;
 * a fallback edited on Router settings is what the router uses for the next call; the
 * Playground streams an answer and says which deployment gave it.
 */
@BrowserTest
class WorkflowsBrowserIT {
    private static final Pattern VIRTUAL_KEY = Pattern.compile("sk-[A-Za-z0-9_-]{16,}");

    private static UiGateway ui;
    private static Browser browser;

    @BeforeAll
    static void start() {
        ui = UiGateway.start();
        browser = Browser.start();
        ui.signIn(browser, UiGateway.MASTER, "Models");
    }

    @AfterAll
    static void stop() {
        try (UiGateway g = ui; Browser b = browser) {
            // both closed, whichever started
        }
    }

    @BeforeEach
    void desktop() {
        browser.wide();
        browser.awaitQuiet();
        browser.forgetProblems();
    }

    private static void go(String link) {
        browser.link(link).click();
        browser.heading(link);
        browser.awaitQuiet();
    }

    @Test
    void aKeyCreatedInTheUiIsFoundThroughTheApiAndItsSecretShownOnlyOnce() {
        go("Keys");
        browser.button("Create key").click();
        browser.fill("Alias", "made-in-the-ui");
        browser.button("Create").click();
        browser.button("Copy key");
        browser.await("the new key's secret", () -> VIRTUAL_KEY.matcher(browser.text()).find());
        Matcher shown = VIRTUAL_KEY.matcher(browser.text());
        assertThat(shown.find()).isTrue();
        String secret = shown.group();

        JsonNode info = UiGateway.json(ui.get("/key/info?key=" + secret));
        assertThat(info.path("info").path("key_alias").asText()).isEqualTo("made-in-the-ui");
        JsonNode listed = UiGateway.json(ui.get("/key/list?return_full_object=true&size=100"));
        assertThat(listed.path("keys").findValuesAsText("key_alias")).contains("made-in-the-ui");

        go("Teams");
        go("Keys");
        browser.awaitText("made-in-the-ui");
        SecretScan.assertNone(browser, Map.of("the new key after its one showing", secret));
        SecretScan.assertNone(browser, ui.secrets());
        browser.assertNoProblems();
    }

    @Test
    void aFallbackEditedOnRouterSettingsIsWhatTheRouterUsesNext() {
        HttpResponse<String> before = ui.chat(UiGateway.MASTER, "flaky", "before the edit");
        assertThat(before.headers().firstValue("x-litellm-model-group")).as(before.body()).hasValue("alpha");
        int backupCalls = ui.backup.requests();

        go("Router settings");
        WebElement fallbacks = browser.field("Fallbacks");
        assertThat(fallbacks.getAttribute("value")).contains("flaky").contains("alpha");
        browser.fill("Fallbacks", "flaky: backup");
        browser.button("Save").click();
        Eventually.until("the fallback saved through the UI", Duration.ofSeconds(10), () -> UiGateway.json(ui.get("/router/settings"))
                .path("settings").path("fallbacks").path("value").toString().equals("[{\"flaky\":[\"backup\"]}]"));
        browser.awaitQuiet();
        assertThat(browser.visible(Role.ALERT)).extracting(WebElement::getText).isEmpty();

        HttpResponse<String> after = ui.chat(UiGateway.MASTER, "flaky", "after the edit");
        assertThat(after.statusCode()).as(after.body()).isEqualTo(200);
        assertThat(after.headers().firstValue("x-litellm-model-group")).hasValue("backup");
        assertThat(after.headers().firstValue("x-litellm-attempted-fallbacks")).hasValue("1");
        assertThat(ui.backup.requests()).isEqualTo(backupCalls + 1);
        browser.assertNoProblems();
    }

    @Test
    void thePlaygroundStreamsAnAnswerAndSaysWhichDeploymentGaveIt() {
        go("Playground");
        new Select(browser.field("Model group")).selectByValue("alpha");
        browser.fill("Message", "Hello from the browser");
        int streamsBefore = streamedCalls();
        browser.button("Send").click();

        String answer = "[alpha] you said: Hello from the browser";
        browser.awaitText(answer);
        browser.await("the answer in a polite live region", () -> browser.driver().findElements(By.cssSelector("[aria-live=polite]"))
                .stream().anyMatch(region -> region.getText().contains(answer)));
        browser.awaitText("alpha-1");
        browser.awaitQuiet();
        assertThat(streamedCalls()).as("the upstream was asked for a stream").isEqualTo(streamsBefore + 1);
        assertThat(browser.visible(Role.ALERT)).extracting(WebElement::getText).isEmpty();
        SecretScan.assertNone(browser, ui.secrets());
        browser.assertNoProblems();
    }

    private static int streamedCalls() {
        return (int) ui.alpha.receivedBodies().stream().filter(body -> body.path("stream").asBoolean()).count();
    }
}
