package dev.sluice.admin.ui.browser;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.TestDatabase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TimeoutException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * One headless Chromium, driven through the system's chromedriver, for one test class: a fresh
 * profile, a 1280×800 viewport (or a phone's 390×844), and the page's console errors and failed
 * requests kept for {@link #assertNoProblems}. Close it to quit the browser and remove its profile.
 */
final class Browser implements AutoCloseable {
    private static final Pattern VIRTUAL_KEY = Pattern.compile("sk-[A-Za-z0-9_-]{16,}");
    /** Generous: the tests share a loaded machine, and a wait ends as soon as its condition holds. */
    static final Duration WAIT = Duration.ofSeconds(30);
    /** The page's own account of itself, kept on its root element by app.js (and the harness's page). */
    private static final String PAGE_STATE = "const d = document.documentElement.dataset;"
            + " return [d.pageReady || null, d.requestsStarted || null, d.requestsDone || null];";
    /** Held so the setting lasts: Selenium warns of a CDP version it lacks, which these tests never use. */
    private static final java.util.logging.Logger DEVTOOLS_LOG = java.util.logging.Logger.getLogger("org.openqa.selenium.devtools");

    static {
        DEVTOOLS_LOG.setLevel(Level.OFF);
        // Selenium's own tracing would set up OpenTelemetry in this JVM, which the gateway's tests share.
        System.setProperty("webdriver.remote.enableTracing", "false");
    }

    private final ChromeDriver driver;
    private final Path profile;
    private final BrowserProblems problems;

    private Browser(ChromeDriver driver, Path profile) {
        this.driver = driver;
        this.profile = profile;
        this.problems = new BrowserProblems(driver.manage().logs());
    }

    /** Starts Chromium at 1280×800; {@link RequiresChromium} has checked that it exists. */
    static Browser start() {
        Chromium chromium = Chromium.configured();
        System.setProperty("webdriver.chrome.driver", chromium.driver().toString());
        Path profile;
        try {
            profile = Files.createTempDirectory("sluice-chromium-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(chromium.browser().toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--user-data-dir=" + profile, "--window-size=1280,800");
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        logs.enable(LogType.PERFORMANCE, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        options.setExperimentalOption("perfLoggingPrefs", Map.of("enableNetwork", true, "enablePage", false));
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(chromium.driver().toFile())
                .usingAnyFreePort()
                .build();
        try {
            Browser browser = new Browser(new ChromeDriver(service, options), profile);
            browser.wide();
            return browser;
        } catch (RuntimeException e) {
            TestDatabase.deleteTree(profile);
            throw e;
        }
    }

    ChromeDriver driver() {
        return driver;
    }

    /** Loads {@code url} and waits for the document to finish loading. */
    void open(String url) {
        driver.get(url);
    }

    /** A desktop viewport of exactly 1280×800 CSS pixels. */
    void wide() {
        viewport(1280, 800, false);
    }

    /** A phone's viewport: 390×844 CSS pixels, as an iPhone 12 to 15. */
    void narrow() {
        viewport(390, 844, true);
    }

    private void viewport(int width, int height, boolean mobile) {
        driver.executeCdpCommand("Emulation.setDeviceMetricsOverride",
                Map.of("width", width, "height", height, "deviceScaleFactor", 1, "mobile", mobile));
        await("a viewport of " + width + "×" + height,
                () -> Long.valueOf(width).equals(js("return window.innerWidth;")));
    }

    /** Runs a script in the page and answers its result. */
    Object js(String script, Object... args) {
        return driver.executeScript(script, args);
    }

    /** Waits (polling, never sleeping a fixed time) until {@code condition} is true. */
    void await(String what, Supplier<Boolean> condition) {
        try {
            new WebDriverWait(driver, WAIT, Duration.ofMillis(50))
                    .ignoring(StaleElementReferenceException.class)
                    .until(d -> condition.get());
        } catch (TimeoutException e) {
            throw new AssertionError("waited " + WAIT.toSeconds() + " s for " + what + " at " + driver.getCurrentUrl()
                    + "; the page says: " + Find.fold(text()), e);
        }
    }

    /** The one visible element of {@code role} named {@code name}, waited for. */
    WebElement find(Role role, String name) {
        WebElement[] found = new WebElement[1];
        try {
            await("one " + role + " named '" + name + "'", () -> {
                List<WebElement> named = Find.all(driver, role, name);
                found[0] = named.size() == 1 ? named.getFirst() : null;
                return found[0] != null;
            });
        } catch (AssertionError e) {
            throw new AssertionError("no single " + role + " named '" + name + "'; the visible " + role + "s are named "
                    + Find.names(driver, role), e);
        }
        return found[0];
    }

    /** Every visible element of {@code role}, now. */
    List<WebElement> visible(Role role) {
        return driver.findElements(By.cssSelector(role.css)).stream().filter(WebElement::isDisplayed).toList();
    }

    /** How many visible elements of {@code role} are named {@code name}, now. */
    int count(Role role, String name) {
        return Find.all(driver, role, name).size();
    }

    WebElement field(String label) {
        return find(Role.FIELD, label);
    }

    WebElement button(String name) {
        return find(Role.BUTTON, name);
    }

    WebElement link(String name) {
        return find(Role.LINK, name);
    }

    /** Types {@code text} into the field labelled {@code label}, replacing what it held. */
    void fill(String label, String text) {
        WebElement field = field(label);
        field.clear();
        field.sendKeys(text);
    }

    /** Waits for the page's main heading ({@code <h1>}) to read {@code text}, and answers it. */
    WebElement heading(String text) {
        await("the heading '" + text + "'", () -> driver.findElements(By.cssSelector("h1")).stream()
                .anyMatch(h -> h.isDisplayed() && Find.fold(h.getText()).equals(text)));
        return driver.findElements(By.cssSelector("h1")).stream()
                .filter(h -> Find.fold(h.getText()).equals(text)).findFirst().orElseThrow();
    }

    /** Waits for the API's refusal to show at the field labelled {@code label}, and answers the error's text. */
    String fieldError(String label) {
        WebElement field = field(label);
        await("the API's refusal at the " + label + " field", () -> "true".equals(field.getAttribute("aria-invalid")));
        return js("return document.getElementById(arguments[0]).textContent;", field.getAttribute("aria-describedby")).toString();
    }

    /** Waits for a new virtual key's {@code sk-…} secret, shown once beside its {@code Copy key} button, and answers it. */
    String shownVirtualKey() {
        button("Copy key");
        await("the new key's secret", () -> VIRTUAL_KEY.matcher(text()).find());
        Matcher shown = VIRTUAL_KEY.matcher(text());
        if (!shown.find()) {
            throw new AssertionError("the new key's secret left the page before it was read");
        }
        return shown.group();
    }

    /** Waits until {@code text} shows somewhere in the page. */
    void awaitText(String text) {
        await("the text '" + text + "'", () -> text().contains(text));
    }

    /** The page's visible text. */
    String text() {
        Object text = js("return document.body ? document.body.innerText : '';");
        return text == null ? "" : text.toString();
    }

    /**
     * What the page says of itself: the page it has finished rendering ({@code data-page-ready},
     * null while one is on its way) and how many requests it has started and finished
     * ({@code data-requests-started}, {@code data-requests-done}; null on a page that keeps no count).
     */
    record PageState(String ready, String started, String done) {
        /** True when a page has rendered and every request it started has been answered and read. */
        boolean idle() {
            return ready != null && started != null && started.equals(done);
        }
    }

    /** The page's state now. */
    PageState pageState() {
        List<?> state = (List<?>) js(PAGE_STATE);
        return new PageState((String) state.get(0), (String) state.get(1), (String) state.get(2));
    }

    /**
     * Waits until the page has rendered, every request it started is done (by its own count), and
     * Chromium's logs show no request in flight and nothing new since the look before, which saw
     * the same state: so a request the page started is counted even before the logs report it,
     * and what the logs had still to deliver about it has arrived.
     */
    void awaitQuiet() {
        PageState[] before = {null};
        PageState[] now = {null};
        try {
            await("the page to be ready with no request in flight", () -> {
                now[0] = pageState();
                boolean logsQuiet = problems.quietSinceLastLook();
                boolean settled = now[0].idle() && now[0].equals(before[0]) && logsQuiet;
                before[0] = now[0].idle() ? now[0] : null;
                return settled;
            });
        } catch (AssertionError e) {
            throw new AssertionError("the page's state was " + now[0] + " and the network log still waited for "
                    + problems.waiting() + ": " + e.getMessage(), e);
        }
    }

    /** Waits until a console error or failed request the tests do not expect mentions {@code text}. */
    void awaitProblem(String text) {
        await("a console error or failed request mentioning '" + text + "'",
                () -> problems.unexpected(List.of()).stream().anyMatch(line -> line.contains(text)));
    }

    /** Presses Tab and answers the element that has the focus then. */
    WebElement tab() {
        new Actions(driver).sendKeys(Keys.TAB).perform();
        return driver.switchTo().activeElement();
    }

    /** The focused element's computed outline, e.g. {@code "solid 3px"}; {@code "none 0px"} when it shows none. */
    String focusOutline() {
        return (String) js("const s = getComputedStyle(document.activeElement);"
                + " return s.outlineStyle + ' ' + s.outlineWidth;");
    }

    /** Forgets the console errors and failed requests so far. */
    void forgetProblems() {
        problems.take(List.of());
    }

    /** Fails naming every console error and failed request since the last look that {@code expected} does not allow. */
    void assertNoProblems(Expected... expected) {
        assertThat(problems.take(List.of(expected))).as("console errors and failed requests at " + driver.getCurrentUrl()).isEmpty();
    }

    /** A PNG of the viewport. */
    byte[] screenshot() {
        return driver.getScreenshotAs(OutputType.BYTES);
    }

    @Override
    public void close() {
        try {
            driver.quit();
        } finally {
            TestDatabase.deleteTree(profile);
        }
    }
}
