package dev.sluice.admin.ui;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.TestGateway;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * An admin UI session as a test holds it, opened by {@code POST /ui/api/session} on a running
 * gateway: its cookie (the {@code name=value} pair a browser sends back) and its CSRF token,
 * with the requests a browser page makes with them. The cookie's name carries the port of the
 * address it was set for; {@link #cookieAt} presents the same session at another replica as a
 * browser would behind one address that reaches both.
 */
record SignIn(String cookie, String csrfToken, JsonNode body, String setCookie) {

    /** The session cookie's name at {@code gateway}'s address (127.0.0.1 and its port). */
    static String cookieName(TestGateway gateway) {
        return SessionCookie.NAME + "_" + gateway.port();
    }

    /** The cookie as a browser would send it to {@code gateway}, were both behind one address. */
    String cookieAt(TestGateway gateway) {
        return cookieName(gateway) + cookie.substring(cookie.indexOf('='));
    }

    /** Signs in with {@code key}; fails the test unless the answer is 200. */
    static SignIn of(TestGateway gateway, String key) {
        HttpResponse<String> answer = post(gateway, key);
        if (answer.statusCode() != 200) {
            throw new AssertionError("sign-in answered " + answer.statusCode() + " " + answer.body());
        }
        String setCookie = answer.headers().firstValue("Set-Cookie").orElseThrow();
        JsonNode body = json(answer);
        return new SignIn(setCookie.substring(0, setCookie.indexOf(';')), body.path("csrf_token").asText(), body, setCookie);
    }

    /** {@code POST /ui/api/session} with {@code key}, whatever it answers. */
    static HttpResponse<String> post(TestGateway gateway, String key) {
        return gateway.post("/ui/api/session", "{\"key\": " + Json.MAPPER.valueToTree(key) + "}");
    }

    /** A GET with the cookie and the CSRF token, as the UI's pages send it. */
    HttpResponse<String> get(TestGateway gateway, String path) {
        return gateway.get(path, "Cookie", cookieAt(gateway), "X-CSRF-Token", csrfToken);
    }

    /** A JSON POST with the cookie and the CSRF token. */
    HttpResponse<String> post(TestGateway gateway, String path, String json) {
        return gateway.post(path, json, "Cookie", cookieAt(gateway), "X-CSRF-Token", csrfToken);
    }

    /** A request with the cookie and {@code method}, with the given extra header pairs and no body. */
    HttpResponse<String> send(TestGateway gateway, String method, String path, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(gateway.uri(path)).timeout(Duration.ofSeconds(20))
                .method(method, HttpRequest.BodyPublishers.noBody()).header("Cookie", cookieAt(gateway));
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return gateway.send(request.build());
    }

    static JsonNode json(HttpResponse<String> answer) {
        try {
            return Json.parse(answer.body().getBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String errorCode(HttpResponse<String> answer) {
        return json(answer).path("error").path("code").asText(null);
    }
}
