package dev.sluice.admin.ui.browser;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;

/**
 * The Users page, each change checked through the API: the seeded user is listed with its
 * budget and its key (by alias, never its secret); a user created in the UI after the API's
 * refusal of a bad budget showed at the Max budget field is found by {@code /user/info} with the
 * form's budget and role, and its key is shown once; a budget edited there is what
 * {@code /user/info} then holds, the fields left alone not sent; a deleted user is gone with its key.
 */
@BrowserTest
class UsersBrowserIT extends SignedInSuite {

    @Test
    void theSeededUserIsListedWithItsBudgetAndItsKeysAlias() {
        go("Users");
        browser.awaitText(UiGateway.SEEDED_USER);
        String text = browser.text();
        assertThat(text).contains("seeded@example.com", "internal_user_viewer", "$0.00 of $20.00", "1 key");
        assertThat(text).as("the key's alias before its list is opened").doesNotContain("ui-seeded-key");
        WebElement keys = browser.driver().findElements(By.cssSelector("summary")).stream()
                .filter(summary -> summary.getAccessibleName().equals("1 key of " + UiGateway.SEEDED_USER))
                .findFirst().orElseThrow(() -> new AssertionError("no disclosure named '1 key of " + UiGateway.SEEDED_USER + "'"));
        keys.sendKeys(Keys.ENTER);
        browser.awaitText("ui-seeded-key");
        browser.narrow();
        try {
            assertThat(browser.js("return Math.max(document.documentElement.scrollWidth, window.innerWidth) - 390;"))
                    .as("the list, a user's keys open, wider than a phone's screen by (pixels)").isEqualTo(0L);
        } finally {
            browser.wide();
        }
        assertThat(browser.visible(Role.ALERT)).extracting(WebElement::getText).isEmpty();
        SecretScan.assertNone(browser, ui.secrets());
        browser.assertNoProblems();
    }

    @Test
    void aUserCreatedInTheUiIsFoundThroughTheApiAfterABadBudgetShowedAtItsFieldAndItsKeyIsShownOnce() {
        go("Users");
        browser.button("Create user").click();
        browser.fill("User id", "made-in-the-ui-user");
        browser.fill("Email", "made@example.com");
        new Select(browser.field("Role")).selectByValue("proxy_admin_viewer");
        browser.fill("Max budget", "lots");
        assertThat(browser.field("Create a key for this user").isSelected()).as("a key is made unless told").isTrue();
        browser.fill("Key alias", "made-in-the-ui-user-key");
        browser.button("Create").click();
        assertThat(browser.fieldError("Max budget")).as("the error under Max budget").contains("max_budget").contains("lots");
        browser.awaitQuiet();
        browser.assertNoProblems(Expected.failure("POST", "/user/new", 400));
        assertThat(ui.get("/user/info?user_id=made-in-the-ui-user").statusCode()).as("no user made by the refused call").isEqualTo(404);

        browser.fill("Max budget", "12.5");
        browser.button("Create").click();
        String secret = browser.shownVirtualKey();
        browser.awaitText("made@example.com");
        browser.awaitQuiet();

        JsonNode info = UiGateway.json(ui.get("/user/info?user_id=made-in-the-ui-user"));
        assertThat(info.path("user_info").path("max_budget").asDouble()).isEqualTo(12.5);
        assertThat(info.path("user_info").path("user_email").asText()).isEqualTo("made@example.com");
        assertThat(info.path("user_info").path("user_role").asText()).isEqualTo("proxy_admin_viewer");
        assertThat(info.path("keys").findValuesAsText("key_alias")).containsExactly("made-in-the-ui-user-key");
        JsonNode key = UiGateway.json(ui.get("/key/info?key=" + secret)).path("info");
        assertThat(key.path("user_id").asText()).isEqualTo("made-in-the-ui-user");

        browser.button("Done").click();
        browser.await("the secret to leave the page", () -> !browser.text().contains(secret));
        SecretScan.assertNone(browser, Map.of("the new user's key once Done was pressed", secret));
        go("Teams");
        go("Users");
        browser.awaitText("made-in-the-ui-user");
        SecretScan.assertNone(browser, Map.of("the new user's key after its one showing", secret));
        SecretScan.assertNone(browser, ui.secrets());
        assertThat(browser.visible(Role.ALERT)).extracting(WebElement::getText).isEmpty();
        browser.assertNoProblems();
    }

    @Test
    void aUserCreatedWithoutAKeyHasNone() {
        go("Users");
        browser.button("Create user").click();
        browser.fill("User id", "keyless-ui-user");
        browser.field("Create a key for this user").click();
        browser.button("Create").click();
        browser.await("the dialog to close", () -> browser.count(Role.BUTTON, "Create") == 0);
        browser.awaitText("keyless-ui-user");
        browser.awaitQuiet();
        assertThat(browser.count(Role.BUTTON, "Copy key")).isZero();
        JsonNode info = UiGateway.json(ui.get("/user/info?user_id=keyless-ui-user"));
        assertThat(info.path("keys").size()).isZero();
        browser.assertNoProblems();
    }

    @Test
    void aBudgetEditedInTheUiIsSeenByTheApiAndADeletedUserIsGoneWithItsKey() {
        String secret = UiGateway.json(ui.post("/user/new", """
                {"user_id": "edited-ui-user", "max_budget": 3, "budget_duration": "30d", "rpm_limit": 9,
                 "key_alias": "edited-ui-user-key"}""")).path("key").asText();
        String resetAt = UiGateway.json(ui.get("/user/info?user_id=edited-ui-user")).path("user_info").path("budget_reset_at").asText();
        go("Users");
        browser.awaitText("edited-ui-user");
        // Changed elsewhere after the page read it: the form, sending only what it changed, leaves it be.
        UiGateway.json(ui.post("/user/update", "{\"user_id\": \"edited-ui-user\", \"rpm_limit\": 11}"));
        browser.button("Edit edited-ui-user").click();
        browser.fill("Max budget", "7");
        browser.button("Save").click();
        browser.await("the dialog to close", () -> browser.count(Role.BUTTON, "Save") == 0);
        browser.awaitText("Saved user edited-ui-user.");
        browser.awaitQuiet();
        JsonNode user = UiGateway.json(ui.get("/user/info?user_id=edited-ui-user")).path("user_info");
        assertThat(user.path("max_budget").asDouble()).isEqualTo(7.0);
        assertThat(user.path("rpm_limit").asInt()).as("a field the form left alone, changed meanwhile through the API").isEqualTo(11);
        assertThat(user.path("budget_reset_at").asText()).as("the period, not restarted by an unchanged duration").isEqualTo(resetAt);
        assertThat(browser.text()).contains("$0.00 of $7.00");

        browser.button("Delete edited-ui-user").click();
        assertThat(browser.find(Role.REGION, "Delete user?").getText()).contains("edited-ui-user", "its 1 key");
        browser.button("Delete").click();
        browser.awaitText("Deleted user edited-ui-user and its 1 key.");
        browser.awaitQuiet();
        assertThat(browser.count(Role.BUTTON, "Edit edited-ui-user")).isZero();
        assertThat(ui.get("/user/info?user_id=edited-ui-user").statusCode()).isEqualTo(404);
        assertThat(ui.get("/key/info?key=" + secret).statusCode()).as("the user's key, deleted with it").isIn(401, 404);
        SecretScan.assertNone(browser, Map.of("the edited user's key", secret));
        assertThat(browser.visible(Role.ALERT)).extracting(WebElement::getText).isEmpty();
        browser.assertNoProblems();
    }
}
