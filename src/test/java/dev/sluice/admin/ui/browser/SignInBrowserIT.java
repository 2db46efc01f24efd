package dev.sluice.admin.ui.browser;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.admin.ui.SessionCookie;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.Cookie;
import org.openqa.selenium.WebElement;

/**
 * Signing in to the admin UI in a real Chromium: the master key opens every page behind an
 * HttpOnly, SameSite=Strict session cookie; a wrong key shows one alert and nothing else; a
 * virtual key sees its own Usage and Logs only; the form works from the keyboard.
 */
@BrowserTest
class SignInBrowserIT extends UiBrowserSuite {
    static final List<String> ADMIN_LINKS = List.of("Models", "Keys", "Teams", "Users", "Usage", "Logs", "Router settings", "Playground", "Health");

    @BeforeEach
    void signedOut() {
        browser.wide();
        ui.signedOut(browser);
        browser.forgetProblems();
    }

    private static List<String> navLinks() {
        return browser.driver().findElements(org.openqa.selenium.By.cssSelector("nav a")).stream()
                .map(WebElement::getAccessibleName).toList();
    }

    private static Cookie sessionCookie() {
        return browser.driver().manage().getCookieNamed(SessionCookie.NAME + "_" + ui.port());
    }

    @Test
    void theMasterKeyOpensEveryPageBehindAnHttpOnlyStrictCookie() {
        assertThat(browser.driver().getTitle()).startsWith("Sluice");
        browser.fill("Master key", UiGateway.MASTER);
        browser.button("Sign in").click();
        browser.heading("Models");

        assertThat(browser.driver().getTitle()).startsWith("Sluice");
        assertThat(navLinks()).containsExactlyElementsOf(ADMIN_LINKS);
        Cookie session = sessionCookie();
        assertThat(session).as("the session cookie").isNotNull();
        assertThat(session.isHttpOnly()).as("HttpOnly").isTrue();
        assertThat(session.getSameSite()).isEqualTo("Strict");
        assertThat(session.getPath()).isEqualTo("/");
        browser.awaitQuiet();
        SecretScan.assertNone(browser, ui.secrets());

        browser.driver().navigate().refresh();
        browser.heading("Models");
        browser.awaitQuiet();
        assertThat(navLinks()).as("the session outlives a reload").containsExactlyElementsOf(ADMIN_LINKS);

        browser.button("Sign out").click();
        browser.field("Master key");
        assertThat(navLinks()).isEmpty();
        assertThat(sessionCookie()).as("the cookie is cleared on sign-out").isNull();
        browser.awaitQuiet();
        browser.assertNoProblems(UiGateway.NO_SESSION_YET);
    }

    @Test
    void aWrongKeyShowsOneAlertAndNothingElse() {
        String wrong = "sk-not-a-key-of-this-gateway";
        browser.fill("Master key", wrong);
        browser.button("Sign in").click();
        browser.await("an alert", () -> !browser.visible(Role.ALERT).isEmpty());
        browser.awaitQuiet();

        List<WebElement> alerts = browser.visible(Role.ALERT);
        assertThat(alerts).hasSize(1);
        assertThat(alerts.getFirst().getText()).isNotBlank().doesNotContain(wrong);
        assertThat(browser.driver().getTitle()).startsWith("Sluice");
        assertThat(navLinks()).as("no navigation without a session").isEmpty();
        assertThat(browser.field("Master key").getAttribute("value")).as("the key is not kept in the field").isEmpty();
        assertThat(sessionCookie()).as("no session for a wrong key").isNull();
        assertThat(browser.visible(Role.HEADING)).extracting(WebElement::getText).containsExactly("Sign in to Sluice");
        SecretScan.assertNone(browser, Map.of("the wrong key", wrong));
        browser.assertNoProblems(UiGateway.NO_SESSION_YET, Expected.failure("POST", "/ui/api/session", 401));
    }

    @Test
    void aVirtualKeySeesItsOwnUsageAndLogsOnly() {
        browser.fill("Master key", ui.readerKey());
        browser.button("Sign in").click();
        browser.heading("Usage");
        assertThat(navLinks()).containsExactly("Usage", "Logs");
        browser.awaitQuiet();
        SecretScan.assertNone(browser, ui.secrets());

        browser.link("Logs").click();
        browser.heading("Logs");
        browser.awaitQuiet();
        browser.awaitText("alpha");
        assertThat(browser.visible(Role.ALERT)).as("the key's own calls load").isEmpty();
        SecretScan.assertNone(browser, ui.secrets());

        browser.open(ui.url("/ui/models"));
        browser.heading("Usage");
        assertThat(navLinks()).as("an admin page's address leads to the key's own usage").containsExactly("Usage", "Logs");
        browser.awaitQuiet();
        browser.assertNoProblems(UiGateway.NO_SESSION_YET);
    }

    @Test
    void theFormWorksFromTheKeyboardWithAVisibleFocus() {
        WebElement key = browser.field("Master key");
        assertThat(browser.driver().switchTo().activeElement()).as("the key field has the focus at once").isEqualTo(key);
        key.sendKeys(UiGateway.MASTER);
        WebElement signIn = browser.tab();
        assertThat(signIn.getAccessibleName()).isEqualTo("Sign in");
        assertThat(browser.focusOutline()).as("the focused button's outline").doesNotStartWith("none");
        signIn.sendKeys(org.openqa.selenium.Keys.ENTER);
        browser.heading("Models");
        browser.awaitQuiet();
        browser.assertNoProblems(UiGateway.NO_SESSION_YET);
    }

    @Test
    void twoGatewaysOnOneHostKeepTheirOwnSessionsInOneBrowser() {
        String otherMaster = "sk-ui-other-gateway-41c0";
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway other = TestGateway.start("""
                        model_list:
                          - {model_name: elsewhere, litellm_params: {model: openai/e, api_base: %s}}
                        general_settings:
                          master_key: %s
                        """.formatted(upstream.baseUrl(), otherMaster))) {
            ui.signIn(browser, UiGateway.MASTER, "Models");
            browser.awaitQuiet();

            // A browser keeps cookies per host, not per port: one name for both would sign one out.
            browser.open(other.baseUrl() + "/ui/");
            browser.fill("Master key", otherMaster);
            browser.button("Sign in").click();
            browser.heading("Models");
            browser.awaitText("elsewhere");
            browser.awaitQuiet();

            browser.open(ui.url("/ui/"));
            browser.heading("Models");
            browser.awaitQuiet();
            assertThat(navLinks()).as("still signed in to the first gateway").containsExactlyElementsOf(ADMIN_LINKS);
            browser.open(other.baseUrl() + "/ui/");
            browser.heading("Models");
            browser.awaitText("elsewhere");
            browser.awaitQuiet();
            assertThat(navLinks()).as("and to the second").containsExactlyElementsOf(ADMIN_LINKS);
            browser.assertNoProblems(UiGateway.NO_SESSION_YET);
        }
    }
}
