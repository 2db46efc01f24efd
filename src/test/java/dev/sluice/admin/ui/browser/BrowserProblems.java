package dev.sluice.admin.ui.browser;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.logging.Level;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.Logs;

/**
 * What went wrong in the page since the last look: console errors (uncaught exceptions,
 * Content-Security-Policy refusals, {@code console.error}) from Chromium's browser log, and
 * failed requests (an answer of 400 or more, or a load that failed or was blocked) from its
 * performance log's {@code Network.*} events. It also tracks which requests are still in
 * flight, and whether the logs brought anything new, so a test can wait for the page to go quiet
 * instead of sleeping.
 */
final class BrowserProblems {
    private final Logs logs;
    private final List<String> consoleErrors = new ArrayList<>();
    private final List<Failure> failures = new ArrayList<>();
    private final Map<String, String> urls = new HashMap<>();
    private final Map<String, String> methods = new HashMap<>();
    private final Set<String> inFlight = new HashSet<>();

    /** A failed request: its method, URL, status (0 when no answer came) and why. */
    record Failure(String method, String url, int status, String why) {
        @Override
        public String toString() {
            return "failed request " + method + " " + url + (status > 0 ? " answered " + status : "") + (why.isEmpty() ? "" : " (" + why + ")");
        }
    }

    BrowserProblems(Logs logs) {
        this.logs = logs;
    }

    /** Reads the browser's logs gathered since the last call; answers how many entries they held. */
    synchronized int drain() {
        int read = 0;
        for (LogEntry entry : logs.get(LogType.BROWSER)) {
            read++;
            if (entry.getLevel().intValue() >= Level.SEVERE.intValue()) {
                consoleErrors.add(entry.getMessage());
            }
        }
        for (LogEntry entry : logs.get(LogType.PERFORMANCE)) {
            read++;
            network(entry.getMessage());
        }
        return read;
    }

    private void network(String raw) {
        JsonNode message;
        try {
            message = Json.parse(raw.getBytes(StandardCharsets.UTF_8)).path("message");
        } catch (IOException e) {
            throw new IllegalStateException("unreadable performance log entry: " + raw, e);
        }
        JsonNode params = message.path("params");
        String id = params.path("requestId").asText();
        switch (message.path("method").asText()) {
            case "Network.requestWillBeSent" -> {
                String url = params.path("request").path("url").asText();
                urls.put(id, url);
                methods.put(id, params.path("request").path("method").asText());
                // The browser's own pages (chrome://new-tab-page...) are not the page's requests.
                if (url.startsWith("http:") || url.startsWith("https:")) {
                    inFlight.add(id);
                }
            }
            case "Network.responseReceived" -> {
                int status = params.path("response").path("status").asInt();
                if (status >= 400) {
                    failures.add(new Failure(methods.getOrDefault(id, "?"), params.path("response").path("url").asText(), status, ""));
                }
            }
            case "Network.loadingFinished" -> inFlight.remove(id);
            case "Network.loadingFailed" -> {
                inFlight.remove(id);
                String blocked = params.path("blockedReason").asText("");
                // A load the page itself called off (leaving a page mid-request) is no failure.
                if (!params.path("canceled").asBoolean() || !blocked.isEmpty()) {
                    String why = params.path("errorText").asText() + (blocked.isEmpty() ? "" : ", blocked: " + blocked);
                    failures.add(new Failure(methods.getOrDefault(id, "?"), urls.getOrDefault(id, "?"), 0, why));
                }
            }
            default -> {
                // Other network events (data received, extra info) say nothing about failure.
            }
        }
    }

    /** The URLs of the requests still waiting for their answers. */
    synchronized List<String> waiting() {
        return inFlight.stream().map(id -> urls.getOrDefault(id, id)).toList();
    }

    /** True when the logs held nothing new since the last look and no request is waiting for its answer. */
    synchronized boolean quietSinceLastLook() {
        return drain() == 0 && inFlight.isEmpty();
    }

    /**
     * Every problem since the last call that {@code expected} does not allow, each a line
     * naming it; forgets them all.
     */
    synchronized List<String> take(List<Expected> expected) {
        List<String> problems = unexpected(expected);
        consoleErrors.clear();
        failures.clear();
        return problems;
    }

    /** Every problem since the last {@link #take} that {@code expected} does not allow, each a line naming it. */
    synchronized List<String> unexpected(List<Expected> expected) {
        drain();
        List<String> problems = new ArrayList<>();
        for (String line : consoleErrors) {
            if (expected.stream().noneMatch(e -> e.matchesConsole(line))) {
                problems.add("console error: " + line);
            }
        }
        for (Failure failure : failures) {
            if (expected.stream().noneMatch(e -> e.matchesResponse(failure.method(), failure.url(), failure.status()))) {
                problems.add(failure.toString());
            }
        }
        return problems;
    }
}
