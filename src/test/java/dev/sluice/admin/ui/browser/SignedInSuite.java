package dev.sluice.admin.ui.browser;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

/**
 * Browser tests signed in with the master key once for the class, each test starting at the
 * desktop size with the problems of the tests before it forgotten.
 */
abstract class SignedInSuite extends UiBrowserSuite {

    @BeforeAll
    static void signInWithTheMasterKey() {
        ui.signIn(browser, UiGateway.MASTER, "Models");
    }

    @BeforeEach
    void atTheDesktopSize() {
        browser.wide();
        browser.awaitQuiet();
        browser.forgetProblems();
    }
}
