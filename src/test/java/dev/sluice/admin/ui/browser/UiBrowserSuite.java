package dev.sluice.admin.ui.browser;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * What every browser test class of the admin UI starts with: one {@link UiGateway} and one
 * headless {@link Browser} for the whole class (each takes seconds to start), both closed after
 * it. A subclass's own {@code @BeforeAll} runs after this one's, with both started.
 */
abstract class UiBrowserSuite {
    static UiGateway ui;
    static Browser browser;

    @BeforeAll
    static void startGatewayAndBrowser() {
        ui = UiGateway.start();
        browser = Browser.start();
    }

    @AfterAll
    static void stopGatewayAndBrowser() {
        try (UiGateway g = ui; Browser b = browser) {
            // both closed, whichever started
        }
    }

    /** Follows the navigation link {@code link} and waits for its page to settle. */
    static void go(String link) {
        browser.link(link).click();
        browser.heading(link);
        browser.awaitQuiet();
    }
}
