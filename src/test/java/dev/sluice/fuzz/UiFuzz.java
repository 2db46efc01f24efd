package dev.sluice.fuzz;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.function.Function;

/**
 * Fuzzed requests to the admin UI's routes: sign-in ({@code POST /ui/api/session}) with mutated
 * bodies, media types and {@code Sec-Fetch-Site}; the session's {@code GET} and {@code DELETE}
 * with mutated cookies and CSRF tokens; and {@code /ui} paths mutated with {@code ..}, percent
 * escapes, backslashes and empty segments, sent raw as a client would not. Beside the rules
 * every answer keeps, each checks what the UI promises: a sign-in from another site is a 403
 * whatever it holds, and a path that could climb out of the UI's folder is never served.
 */
final class UiFuzz {
    private static final String SESSION = "/ui/api/session";
    private static final List<String> SITES = List.of("cross-site", "same-site", "CROSS-SITE", "nonsense", "");
    private static final List<String> MEDIA = List.of("text/plain", "application/x-www-form-urlencoded", "multipart/form-data",
            "application/jsonx", "json", "application/json, text/plain", ";application/json");
    private static final List<String> PAGES = List.of("/ui", "/ui/", "/ui/keys", "/ui/keys/", "/ui/assets/app.js",
            "/ui/assets/style.css", "/ui/api", "/ui/assets", "/ui/assets/dom.js");
    /** Mutations of a path, each one a way out of the UI's folder a lax server would follow. */
    private static final List<String> CLIMBS = List.of("/..", "/../..", "/%2e%2e", "/%2E%2E/", "/..%2f", "%2f..%2f", "\\..\\",
            "\\", "//", "/./", "/.", "/%00", "%00.js", "/%ZZ", "/%", "/%c0%ae%c0%ae/", "/..;/", "/....//", "/assets/../app.js",
            "/assets//app.js", "/assets/.app.js", "/assets/app.js.", "/assets/app..js", "/" + "a".repeat(5_000),
            "/assets/%2e%2e%2fapp.js", "/\u00e9");

    private final FuzzClient client;
    private final Mutator mutator;
    private final Random random;
    private final Credentials credentials;
    private final Function<String, URI> uri;

    UiFuzz(FuzzClient client, Mutator mutator, Random random, Credentials credentials, Function<String, URI> uri) {
        this.client = client;
        this.mutator = mutator;
        this.random = random;
        this.credentials = credentials;
        this.uri = uri;
    }

    /** One fuzzed request to a UI route. */
    void next() {
        switch (random.nextInt(6)) {
            case 0, 1 -> signIn();
            case 2 -> current();
            case 3 -> signOut();
            default -> page();
        }
    }

    private void signIn() {
        ObjectNode seed = JsonNodeFactory.instance.objectNode()
                .put("key", random.nextBoolean() ? credentials.master() : credentials.key());
        byte[] body = random.nextInt(3) == 0 ? seed.toString().getBytes(StandardCharsets.UTF_8) : mutator.mutate(seed);
        String media = random.nextInt(6) == 0 ? MEDIA.get(random.nextInt(MEDIA.size()))
                : random.nextBoolean() ? "application/json" : "Application/JSON; charset=utf-8";
        Optional<String> site = switch (random.nextInt(6)) {
            case 0 -> Optional.of(SITES.get(random.nextInt(SITES.size())));
            case 1 -> Optional.of("same-origin");
            case 2 -> Optional.of("none");
            default -> Optional.empty();
        };
        HttpRequest.Builder request = HttpRequest.newBuilder(uri.apply(SESSION)).timeout(FuzzClient.ANSWER_WITHIN)
                .header("Content-Type", media)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        site.filter(value -> !value.isEmpty()).ifPresent(value -> request.header("Sec-Fetch-Site", value));
        if (random.nextInt(4) == 0) {
            request.header("Cookie", credentials.cookie(random, random.nextInt(credentials.sessions().size())));
        }
        String sent = "POST " + SESSION + " (" + media + ", Sec-Fetch-Site " + site.orElse("-") + ") "
                + FuzzAnswer.abbreviated(new String(body, StandardCharsets.UTF_8));
        FuzzAnswer answer = client.send(request.build(), SESSION, sent);
        boolean foreign = site.filter(value -> !value.isEmpty()).filter(value -> !value.equalsIgnoreCase("same-origin")
                && !value.equalsIgnoreCase("none")).isPresent();
        if (answer != null && foreign && (answer.status() != 403 || !answer.errorCode().equals("cross_site_request"))) {
            client.found("a sign-in from another site was not refused with 403 cross_site_request: " + answer.status() + " "
                    + FuzzAnswer.abbreviated(answer.body()) + " for " + sent);
        }
    }

    private void current() {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri.apply(SESSION)).timeout(FuzzClient.ANSWER_WITHIN).GET();
        String cookie = withSession(request);
        client.send(request.build(), SESSION, "GET " + SESSION + " Cookie: " + FuzzAnswer.abbreviated(cookie));
    }

    private void signOut() {
        int session = random.nextInt(credentials.sessions().size());
        HttpRequest.Builder request = HttpRequest.newBuilder(uri.apply(SESSION)).timeout(FuzzClient.ANSWER_WITHIN).DELETE();
        String cookie = credentials.cookie(random, session);
        request.header("Cookie", cookie);
        Optional<String> csrf = credentials.csrf(random, session);
        csrf.ifPresent(token -> request.header("X-CSRF-Token", token));
        String method = random.nextInt(8) == 0 ? "PUT" : "DELETE";
        if (method.equals("PUT")) {
            request.PUT(HttpRequest.BodyPublishers.ofString("{}"));
        }
        String sent = method + " " + SESSION + " Cookie: " + FuzzAnswer.abbreviated(cookie) + " X-CSRF-Token: "
                + FuzzAnswer.abbreviated(csrf.orElse("-"));
        FuzzAnswer answer = client.send(request.build(), SESSION, sent);
        boolean validCookie = cookie.equals(credentials.cookieName() + "=" + credentials.sessions().get(session));
        boolean wrongToken = csrf.filter(credentials.csrfTokens().get(session)::equals).isEmpty();
        if (answer != null && method.equals("DELETE") && validCookie && wrongToken && answer.status() != 403) {
            client.found("a sign-out with the session's cookie but not its CSRF token was not a 403: " + answer.status()
                    + " for " + sent);
        }
    }

    /** Sets a session cookie, and maybe a token, on {@code request}; what the cookie header was. */
    private String withSession(HttpRequest.Builder request) {
        int session = random.nextInt(credentials.sessions().size());
        String cookie = credentials.cookie(random, session);
        request.header("Cookie", cookie);
        credentials.csrf(random, session).ifPresent(token -> request.header("X-CSRF-Token", token));
        return cookie;
    }

    private void page() {
        String path = PAGES.get(random.nextInt(PAGES.size()));
        boolean climbs = random.nextInt(4) != 0;
        if (climbs) {
            String climb = CLIMBS.get(random.nextInt(CLIMBS.size()));
            int at = random.nextInt(path.length() - 2) + 3; // somewhere past "/ui"
            path = path.substring(0, at) + climb + path.substring(at);
        }
        String method = switch (random.nextInt(8)) {
            case 0 -> "HEAD";
            case 1 -> "POST";
            case 2 -> "OPTIONS";
            default -> "GET";
        };
        String head = method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0"
                + (random.nextInt(4) == 0 ? "\r\nIf-None-Match: \"" + "z".repeat(random.nextInt(100)) + "\"" : "");
        String sent = method + " " + FuzzAnswer.abbreviated(path);
        // A HEAD answer has no body to hold an error: only its status is checked.
        FuzzAnswer answer = client.sendRaw(method.equals("HEAD") ? "HEAD " + path : path, head, new byte[0], sent);
        if (answer != null && climbs && leavesTheFolder(path) && answer.status() < 400) {
            client.found("a /ui path that could climb out of the UI's folder was answered " + answer.status() + ": " + sent);
        }
    }

    /** Whether the path (not the query) holds what UiPages refuses to look up. */
    private static boolean leavesTheFolder(String target) {
        String path = target.split("\\?", 2)[0];
        return path.contains("..") || path.contains("%") || path.contains("\\") || path.substring(1).contains("//");
    }
}
