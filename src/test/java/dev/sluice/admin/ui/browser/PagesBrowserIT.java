package dev.sluice.admin.ui.browser;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;

/**
 * Every page of the admin UI, signed in with the master key, reached through its navigation
 * link: it shows its heading with no error, no console error, no failed request and no secret,
 * at 1280×800 and on a 390×844 phone (where nothing overflows sideways); the navigation works
 * from the keyboard with a visible focus. With {@code -Dsluice.ui.screenshots=<folder>} it saves
 * the pictures docs/ui.md shows.
 */
@BrowserTest
class PagesBrowserIT extends UiBrowserSuite {
    /** A page: its address under /ui/, its link's name, its heading. */
    record Page(String path, String link, String heading) {}

    static final List<Page> PAGES = List.of(
            new Page("models", "Models", "Models"),
            new Page("keys", "Keys", "Keys"),
            new Page("teams", "Teams", "Teams"),
            new Page("users", "Users", "Users"),
            new Page("usage", "Usage", "Usage"),
            new Page("logs", "Logs", "Logs"),
            new Page("router", "Router settings", "Router settings"),
            new Page("playground", "Playground", "Playground"),
            new Page("health", "Health", "Health"));

    /** The texts of every chart drawn past its own edge, where the SVG cuts them off. */
    private static final String CLIPPED_CHART_TEXT = """
            const cut = [];
            for (const chart of document.querySelectorAll('svg')) {
              const box = chart.getBoundingClientRect();
              for (const text of chart.querySelectorAll('text')) {
                const r = text.getBoundingClientRect();
                if (r.left < box.left - 0.5 || r.right > box.right + 0.5) cut.push(text.textContent);
              }
            }
            return cut;
            """;

    @BeforeAll
    static void pictureTheSignInThenSignIn() {
        ui.signedOut(browser);
        Screenshots.take(browser, "sign-in");
        ui.signIn(browser, UiGateway.MASTER, "Models");
    }

    private static void visit(Page page) {
        browser.link(page.link()).click();
        browser.heading(page.heading());
        browser.awaitQuiet();
        assertThat(browser.pageState().ready()).as("the page that finished rendering").isEqualTo(page.path());
        assertThat(browser.driver().getCurrentUrl()).isEqualTo(ui.url("/ui/" + page.path()));
        assertThat(browser.driver().getTitle()).startsWith("Sluice");
        // Only now, with the page rendered and its requests answered, can no alert mean none will come.
        assertThat(browser.visible(Role.ALERT)).extracting(WebElement::getText).as("errors on " + page.heading()).isEmpty();
        assertThat(browser.link(page.link()).getAttribute("aria-current")).isEqualTo("page");
        assertThat(browser.js(CLIPPED_CHART_TEXT)).as("chart labels cut at the chart's edge on " + page.heading()).isEqualTo(List.of());
        SecretScan.assertNone(browser, ui.secrets());
        browser.assertNoProblems();
    }

    @Test
    void everyPageLoadsAtDesktopSize() {
        browser.wide();
        browser.forgetProblems();
        for (Page page : PAGES) {
            visit(page);
            Screenshots.take(browser, page.path());
        }
    }

    @Test
    void everyPageLoadsOnAPhoneWithoutOverflowingSideways() {
        browser.narrow();
        browser.forgetProblems();
        try {
            for (Page page : PAGES) {
                visit(page);
                // A phone widens its layout viewport to fit what overflows, so innerWidth grows with it.
                assertThat(browser.js("return Math.max(document.documentElement.scrollWidth, window.innerWidth) - 390;"))
                        .as(page.heading() + " is wider than the phone's screen by (pixels)").isEqualTo(0L);
                if (page.path().equals("models")) {
                    Screenshots.take(browser, "models-narrow");
                }
            }
        } finally {
            browser.wide();
        }
    }

    @Test
    void tabReachesEveryNavigationLinkWithAVisibleFocusAndEnterFollowsIt() {
        browser.wide();
        browser.link("Models").click();
        browser.heading("Models");
        browser.awaitQuiet();
        browser.forgetProblems();
        // A click on the brand puts the keyboard's starting point at the top of the page.
        new Actions(browser.driver()).click(browser.driver().findElement(By.cssSelector(".brand"))).perform();
        for (Page page : PAGES) {
            WebElement focused = browser.tab();
            assertThat(focused.getAccessibleName()).as("Tab after the link before " + page.link()).isEqualTo(page.link());
            assertThat(browser.focusOutline()).as("the outline of the focused link " + page.link()).doesNotStartWith("none").doesNotEndWith(" 0px");
        }
        WebElement signOut = browser.tab();
        assertThat(signOut.getAccessibleName()).isEqualTo("Sign out");
        assertThat(browser.focusOutline()).as("the outline of Sign out").doesNotStartWith("none");

        new Actions(browser.driver()).click(browser.driver().findElement(By.cssSelector(".brand"))).perform();
        browser.tab();
        WebElement keys = browser.tab();
        assertThat(keys.getAccessibleName()).isEqualTo("Keys");
        keys.sendKeys(Keys.ENTER);
        browser.heading("Keys");
        browser.awaitQuiet();
        browser.assertNoProblems();
    }
}
