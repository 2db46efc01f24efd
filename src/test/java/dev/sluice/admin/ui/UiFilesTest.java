package dev.sluice.admin.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.TestGateway;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The admin UI's files as a browser fetches them from a running gateway, and paths that try to reach past them. */
class UiFilesTest {
    private static TestGateway gateway;

    @BeforeAll
    static void start() {
        gateway = TestGateway.start("""
                model_list:
                  - {model_name: g, litellm_params: {model: openai/a, api_base: "http://127.0.0.1:9"}}
                general_settings:
                  master_key: sk-1234
                """);
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    private static void assertUiHeaders(HttpResponse<?> answer) {
        assertThat(answer.headers().firstValue("Content-Security-Policy")).contains(UiHeaders.CONTENT_SECURITY_POLICY);
        assertThat(answer.headers().firstValue("X-Content-Type-Options")).contains("nosniff");
        assertThat(answer.headers().firstValue("Referrer-Policy")).contains("no-referrer");
        assertThat(answer.headers().firstValue("X-Frame-Options")).contains("DENY");
    }

    @Test
    void theIndexAnswersUiItsSlashAndEveryPageWithTheSecurityHeaders() {
        for (String path : new String[] {"/ui", "/ui/", "/ui/models", "/ui/router", "/ui/playground/"}) {
            HttpResponse<String> answer = gateway.get(path);
            assertThat(answer.statusCode()).as(path).isEqualTo(200);
            assertThat(answer.headers().firstValue("Content-Type")).contains("text/html; charset=utf-8");
            assertThat(answer.body()).contains("<script type=\"module\" src=\"/ui/assets/app.js\">");
            assertThat(answer.headers().firstValue("Cache-Control")).contains("no-cache");
            assertUiHeaders(answer);
        }
    }

    @Test
    void assetsAnswerWithTheirTypeAndAnEtagThatGivesA304() throws Exception {
        String[][] expected = {
                {"/ui/assets/app.js", "text/javascript; charset=utf-8"},
                {"/ui/assets/api.js", "text/javascript; charset=utf-8"},
                {"/ui/assets/style.css", "text/css; charset=utf-8"},
                {"/ui/assets/icon.svg", "image/svg+xml"}};
        for (String[] file : expected) {
            HttpResponse<String> answer = gateway.get(file[0]);
            assertThat(answer.statusCode()).as(file[0]).isEqualTo(200);
            assertThat(answer.headers().firstValue("Content-Type")).contains(file[1]);
            assertUiHeaders(answer);
            String etag = answer.headers().firstValue("ETag").orElseThrow();
            HttpResponse<String> again = gateway.get(file[0], "If-None-Match", etag);
            assertThat(again.statusCode()).isEqualTo(304);
            assertThat(again.body()).isEmpty();
            assertThat(gateway.get(file[0], "If-None-Match", "\"other\"").statusCode()).isEqualTo(200);
        }
        HttpResponse<String> head = gateway.send(HttpRequest.newBuilder(gateway.uri("/ui/assets/app.js"))
                .method("HEAD", HttpRequest.BodyPublishers.noBody()).build());
        assertThat(head.statusCode()).isEqualTo(200);
        assertThat(head.body()).isEmpty();
        assertThat(head.headers().firstValue("Content-Type")).contains("text/javascript; charset=utf-8");
    }

    @Test
    void otherMethodsAre405AndUnknownFilesA404InOpenAisShapeWithTheSecurityHeaders() throws IOException {
        HttpResponse<String> post = gateway.post("/ui/assets/app.js", "{}");
        assertThat(post.statusCode()).isEqualTo(405);
        assertThat(post.headers().firstValue("Allow")).contains("GET, HEAD");
        for (String path : new String[] {"/ui/assets/missing.js", "/ui/favicon.ico", "/ui/assets", "/ui/a/b", "/ui/api",
                "/ui/api/other", "/ui/assets/app.js.map"}) {
            HttpResponse<String> answer = gateway.get(path);
            assertThat(answer.statusCode()).as(path).isEqualTo(404);
            assertThat(Json.parse(answer.body().getBytes()).path("error").path("message").asText()).as(path).isNotEmpty();
            assertUiHeaders(answer);
        }
    }

    @Test
    void pathsThatTryToClimbOutOfTheUiFolderAre404() throws IOException {
        String[] attempts = {
                "/ui/assets/../index.html", "/ui/assets/../../dev/sluice/admin/ui/SessionSeal.class",
                "/ui/assets/..%2findex.html", "/ui/assets/%2e%2e/index.html", "/ui/assets/%2E%2E%2Findex.html",
                "/ui/assets/..\\index.html", "/ui/assets\\app.js", "/ui/assets//app.js", "/ui/assets/./app.js",
                "/ui/assets/app%2ejs", "/ui/..", "/ui/%2e%2e/%2e%2e/META-INF/MANIFEST.MF",
                "/ui/assets/../SessionSeal.class", "/ui/assets/.hidden.js", "/ui/assets/%00app.js"};
        for (String path : attempts) {
            assertThat(rawStatus(path)).as(path).isEqualTo(404);
        }
    }

    /** The status of a GET of {@code path} sent byte for byte, as no client normalizes it. */
    private static int rawStatus(String path) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", gateway.port())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            return Integer.parseInt(answer.substring(9, 12));
        }
    }
}
