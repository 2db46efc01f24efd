package dev.sluice.admin.ui.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.WebElement;

/**
 * The browser harness on a small page of its own: it finds controls by their accessible names,
 * sees console errors and failed requests (and allows only the ones named), waits for a streamed
 * answer to be read to its end, finds a secret where a page hid it, sizes the viewport, and reads
 * the focus outline. Proof that the UI tests' checks can fail. The page counts its requests with
 * the UI's own api.js, as the UI does.
 */
@BrowserTest
class BrowserHarnessIT {
    private static final String SECRET = "sk-harness-secret-0042";
    private static final String PAGE = """
            <!doctype html><html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1"><title>Harness</title>
            <link rel="stylesheet" href="/page.css">
            <script type="module" src="/page.js"></script></head>
            <body><h1>Harness</h1>
            <label for="name">Name</label> <input id="name">
            <label for="plain">Plain</label> <input id="plain" class="plain">
            <button type="button" id="trouble">Make trouble</button>
            <button type="button" id="slow">Load slowly</button>
            <button type="button" aria-label="Edit row-1">Edit</button>
            <button type="button" hidden>Hidden one</button>
            <p id="out"></p></body></html>
            """;
    /** Each click on Make trouble says how many there have been, so a test can wait for the next one's answer. */
    private static final String SCRIPT = """
            import { countRequests } from '/api.js';
            countRequests();
            const out = document.getElementById('out');
            let troubles = 0;
            document.getElementById('trouble').addEventListener('click', async () => {
              console.error('boom');
              localStorage.setItem('remembered', '%s');
              document.getElementById('name').value = '%s';
              const answer = await fetch('/missing');
              await answer.text();
              out.textContent = 'fetched ' + answer.status + ' #' + ++troubles;
            });
            document.getElementById('slow').addEventListener('click', async () => {
              const answer = await fetch('/slow');
              out.textContent = 'headers ' + answer.status;
              out.textContent = 'slow body: ' + await answer.text();
            });
            document.documentElement.dataset.pageReady = 'harness';
            """.formatted(SECRET, SECRET);

    /** A page breaking its Content-Security-Policy: an inline style and an inline script. It makes no request of its own. */
    private static final String INLINE = """
            <!doctype html><html lang="en" data-page-ready="inline" data-requests-started="0" data-requests-done="0">
            <head><meta charset="utf-8"><title>Inline</title></head>
            <body><h1 style="color: red">Inline</h1><script>document.title = 'ran';</script></body></html>
            """;

    private static HttpServer server;
    private static ExecutorService handlers;
    private static Browser browser;
    /** Held by a test to keep the second half of /slow's answer back. */
    private static volatile CountDownLatch slowRelease = new CountDownLatch(0);

    @BeforeAll
    static void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        handlers = Executors.newCachedThreadPool();
        server.setExecutor(handlers);
        Map<String, String[]> files = Map.of(
                "/page", new String[] {"text/html; charset=utf-8", PAGE},
                "/page.js", new String[] {"text/javascript", SCRIPT},
                "/api.js", new String[] {"text/javascript", uiAsset("api.js")},
                "/page.css", new String[] {"text/css", ":focus-visible { outline: 3px solid orange; } .plain:focus { outline: none; }"},
                "/inline", new String[] {"text/html; charset=utf-8", INLINE});
        server.createContext("/slow", BrowserHarnessIT::slowly);
        server.createContext("/", exchange -> {
            String[] file = files.getOrDefault(exchange.getRequestURI().getPath(), new String[] {"text/plain", "not here"});
            byte[] body = file[1].getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", file[0]);
            exchange.getResponseHeaders().set("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self'");
            exchange.sendResponseHeaders(files.containsKey(exchange.getRequestURI().getPath()) ? 200 : 404, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        browser = Browser.start();
    }

    private static String uiAsset(String name) throws IOException {
        try (InputStream in = BrowserHarnessIT.class.getResourceAsStream("/dev/sluice/admin/ui/assets/" + name)) {
            if (in == null) {
                throw new IllegalStateException("no UI asset " + name + " on the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** Answers its headers and half its body at once, and the rest when the test lets it. */
    private static void slowly(HttpExchange exchange) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
        exchange.sendResponseHeaders(200, 0);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write("part one, ".getBytes(StandardCharsets.UTF_8));
            out.flush();
            try {
                if (!slowRelease.await(Browser.WAIT.toSeconds(), TimeUnit.SECONDS)) {
                    return;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            out.write("part two".getBytes(StandardCharsets.UTF_8));
        }
    }

    @AfterAll
    static void stop() {
        slowRelease.countDown();
        if (browser != null) {
            browser.close();
        }
        if (server != null) {
            server.stop(0);
        }
        if (handlers != null) {
            handlers.shutdownNow();
        }
    }

    @BeforeEach
    void openThePage() {
        browser.wide();
        browser.open("http://127.0.0.1:" + server.getAddress().getPort() + "/page");
        browser.heading("Harness");
        browser.awaitQuiet();
        browser.js("localStorage.clear(); sessionStorage.clear();");
        browser.forgetProblems();
    }

    @Test
    void findsControlsByTheirAccessibleNamesOnly() {
        assertThat(browser.field("Name").getAttribute("id")).isEqualTo("name");
        assertThat(browser.button("Edit row-1").getText()).isEqualTo("Edit");
        assertThat(browser.count(Role.BUTTON, "Edit")).as("the visible text is not the name when aria-label is set").isZero();
        assertThat(browser.count(Role.BUTTON, "Hidden one")).as("hidden elements are not found").isZero();
        assertThat(browser.count(Role.BUTTON, "Make")).as("a part of a name is no match").isZero();
    }

    @Test
    void seesConsoleErrorsAndFailedRequestsAndAllowsOnlyTheExpectedOnes() {
        browser.button("Make trouble").click();
        browser.awaitText("fetched 404 #1");
        browser.awaitQuiet();
        browser.awaitProblem("boom");
        assertThatThrownBy(() -> browser.assertNoProblems(Expected.failure("GET", "/missing", 404)))
                .hasMessageContaining("console error")
                .hasMessageContaining("boom")
                .hasMessageNotContaining("/missing answered 404");

        browser.button("Make trouble").click();
        browser.awaitText("fetched 404 #2");
        browser.awaitQuiet();
        browser.awaitProblem("/missing answered 404");
        assertThatThrownBy(() -> browser.assertNoProblems())
                .hasMessageContaining("failed request GET http://127.0.0.1:" + server.getAddress().getPort() + "/missing answered 404");
        browser.assertNoProblems();
    }

    @Test
    void awaitQuietWaitsForAStreamedAnswerToBeReadToItsEnd() {
        slowRelease = new CountDownLatch(1);
        try {
            browser.button("Load slowly").click();
            browser.awaitText("headers 200");
            assertThat(browser.pageState()).as("the answer's headers alone do not finish its request")
                    .isEqualTo(new Browser.PageState("harness", "1", "0"));
        } finally {
            slowRelease.countDown();
        }
        browser.awaitQuiet();
        assertThat(browser.text()).as("read, with no wait of its own, as soon as the page is quiet").contains("slow body: part one, part two");
        assertThat(browser.pageState()).isEqualTo(new Browser.PageState("harness", "1", "1"));
        browser.assertNoProblems();
    }

    @Test
    void seesWhatTheContentSecurityPolicyRefused() {
        browser.open("http://127.0.0.1:" + server.getAddress().getPort() + "/inline");
        browser.heading("Inline");
        browser.awaitQuiet();
        browser.awaitProblem("'style-src 'self''");
        browser.awaitProblem("'script-src 'self''");
        assertThatThrownBy(() -> browser.assertNoProblems())
                .hasMessageContaining("violates the following Content Security Policy directive 'style-src 'self''")
                .hasMessageContaining("violates the following Content Security Policy directive 'script-src 'self''");
    }

    @Test
    void findsASecretWhereverThePageKeepsIt() {
        SecretScan.assertNone(browser, Map.of("the harness secret", SECRET));
        browser.button("Make trouble").click();
        browser.awaitText("fetched 404 #1");
        assertThat(SecretScan.find(browser, Map.of("the harness secret", SECRET))).containsExactlyInAnyOrder(
                "the harness secret in the value of <input#name labelled \"Name\">",
                "the harness secret in localStorage[\"remembered\"]");
        browser.js("localStorage.clear();");
    }

    @Test
    void sizesTheViewportAsADesktopOrAPhone() {
        assertThat(browser.js("return [window.innerWidth, window.innerHeight];")).isEqualTo(java.util.List.of(1280L, 800L));
        browser.narrow();
        assertThat(browser.js("return [window.innerWidth, window.innerHeight];")).isEqualTo(java.util.List.of(390L, 844L));
    }

    @Test
    void tabMovesTheFocusAndTheOutlineIsRead() {
        browser.js("document.querySelector('h1').setAttribute('tabindex', '-1'); document.querySelector('h1').focus();");
        WebElement first = browser.tab();
        assertThat(first.getAttribute("id")).isEqualTo("name");
        assertThat(browser.focusOutline()).startsWith("solid 3px");
        WebElement second = browser.tab();
        assertThat(second.getAttribute("id")).isEqualTo("plain");
        assertThat(browser.focusOutline()).startsWith("none");
    }
}
