package dev.sluice.admin.ui.browser;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;

/**
 * The management pages changing the gateway, each change checked through the API or the
 * upstreams: a key created on Keys exists for {@code /key/info} and its secret leaves the page
 * after its one showing; a deployment added on Models is served, on its own API key, after the
 * API's refusal of a bad weight showed at the Weight field; a team created on Teams is listed, and a member added there has its role and budget changed.
 */
@BrowserTest
class ManagementBrowserIT extends SignedInSuite {

    @Test
    void aKeyCreatedInTheUiIsFoundThroughTheApiAndItsSecretShownOnlyOnce() {
        go("Keys");
        browser.button("Create key").click();
        browser.fill("Alias", "made-in-the-ui");
        browser.button("Create").click();
        String secret = browser.shownVirtualKey();

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
    void aDeploymentAddedInTheUiIsServedOnItsOwnKeyAfterTheApiErrorShowedAtItsField() {
        String apiKey = "sk-upstream-gamma-8e21c0d7";
        go("Models");
        browser.button("Add deployment").click();
        browser.fill("Model group", "gamma");
        browser.fill("Model", "openai/gpt-4o-mini");
        browser.fill("API base", ui.alpha.baseUrl());
        browser.fill("API key", apiKey);
        browser.fill("Weight", "-1");
        browser.button("Save").click();
        assertThat(browser.fieldError("Weight")).as("the error under Weight").contains("weight");
        browser.awaitQuiet();
        browser.assertNoProblems(Expected.failure("POST", "/model/new", 400));

        browser.fill("Weight", "1");
        browser.button("Save").click();
        browser.await("the dialog to close", () -> browser.count(Role.BUTTON, "Save") == 0);
        browser.awaitText("gamma");
        browser.awaitQuiet();
        SecretScan.assertNone(browser, Map.of("the new deployment's API key", apiKey));
        SecretScan.assertNone(browser, ui.secrets());

        HttpResponse<String> served = ui.chat(UiGateway.MASTER, "gamma", "Hello, gamma");
        assertThat(served.statusCode()).as(served.body()).isEqualTo(200);
        assertThat(ui.alpha.receivedHeaders().getLast()).containsEntry("authorization", "Bearer " + apiKey);
        browser.assertNoProblems();
    }

    @Test
    void aTeamCreatedInTheUiIsListedByTheApi() {
        go("Teams");
        browser.button("Create team").click();
        browser.fill("Team alias", "made-in-the-ui-team");
        browser.fill("Max budget", "25");
        browser.button("Create").click();
        browser.await("the dialog to close", () -> browser.count(Role.BUTTON, "Create") == 0);
        browser.awaitText("made-in-the-ui-team");
        browser.awaitQuiet();
        assertThat(ui.get("/team/list").body()).contains("made-in-the-ui-team");
        assertThat(browser.visible(Role.ALERT)).extracting(WebElement::getText).isEmpty();

        browser.button("Add member to made-in-the-ui-team").click();
        browser.fill("User id", "ui-member");
        browser.button("Add member").click();
        browser.await("the member to be listed", () -> browser.count(Role.BUTTON, "Edit ui-member in made-in-the-ui-team") == 1);
        browser.awaitQuiet();
        browser.button("Edit ui-member in made-in-the-ui-team").click();
        new Select(browser.field("Role")).selectByValue("admin");
        browser.fill("Budget in team", "5");
        browser.button("Save").click();
        browser.await("the dialog to close", () -> browser.count(Role.BUTTON, "Save") == 0);
        browser.awaitQuiet();
        String teamId = UiGateway.json(ui.get("/team/list")).findParents("team_alias").stream()
                .filter(team -> team.path("team_alias").asText().equals("made-in-the-ui-team"))
                .findFirst().orElseThrow().path("team_id").asText();
        JsonNode info = UiGateway.json(ui.get("/team/info?team_id=" + teamId)).path("team_info");
        assertThat(info.path("members_with_roles").toString()).contains("\"user_id\":\"ui-member\"").contains("\"role\":\"admin\"");
        assertThat(info.path("team_memberships").get(0).path("litellm_budget_table").path("max_budget").asDouble()).isEqualTo(5.0);
        assertThat(browser.visible(Role.ALERT)).extracting(WebElement::getText).isEmpty();
        browser.assertNoProblems();
    }
}
