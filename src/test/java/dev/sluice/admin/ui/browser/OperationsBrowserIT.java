package dev.sluice.admin.ui.browser;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.Eventually;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;

/**
 * The operations pages against real failing upstreams: a fallback edited on Router settings
 * is what the router uses for the next call; the Playground streams an answer and says which
 * deployment gave it; Logs opens a call that fell back to its attempts and headers; Health's
 * Probe now shows each deployment's probe.
 */
@BrowserTest
class OperationsBrowserIT extends SignedInSuite {
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
        Screenshots.take(browser, "playground-answer");
        assertThat(browser.visible(Role.ALERT)).extracting(WebElement::getText).isEmpty();
        SecretScan.assertNone(browser, ui.secrets());
        browser.assertNoProblems();
    }

    private static int streamedCalls() {
        return (int) ui.alpha.receivedBodies().stream().filter(body -> body.path("stream").asBoolean()).count();
    }

    @Test
    void aCallThatFellBackOpensToItsAttemptsAndHeaders() {
        JsonNode calls = UiGateway.json(ui.get("/calls/recent?model_group=alpha")).path("calls");
        String callId = java.util.stream.StreamSupport.stream(calls.spliterator(), false)
                .filter(call -> call.path("fallbacks").asInt() == 1).map(call -> call.path("call_id").asText())
                .findFirst().orElseThrow(() -> new AssertionError("no call that fell back to alpha in " + calls));
        go("Logs");
        browser.button("Details of call " + callId).click();
        WebElement dialog = browser.find(Role.REGION, "Call " + callId);
        browser.await("the attempts", () -> dialog.getText().contains("Attempts"));
        assertThat(dialog.getText()).contains("flaky").contains("server").contains("alpha-1").contains("x-litellm-model-id");
        Screenshots.take(browser, "logs-call");
        browser.button("Close").click();
        browser.await("the dialog to close", () -> browser.count(Role.REGION, "Call " + callId) == 0);
        browser.assertNoProblems();
    }

    @Test
    void probeNowShowsEachDeploymentsProbe() {
        go("Health");
        browser.awaitText("Unhealthy (benched)");
        browser.button("Probe now").click();
        browser.await("the probe results", () -> browser.text().contains("Checked at"));
        browser.awaitQuiet();
        String text = browser.text();
        assertThat(text).contains("alpha-1").contains("backup-1").contains("flaky-1").contains("Unhealthy");
        assertThat(browser.visible(Role.ALERT)).extracting(WebElement::getText).isEmpty();
        SecretScan.assertNone(browser, ui.secrets());
        browser.assertNoProblems();
    }
}
