package dev.sluice.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.TestGateway;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every {@code curl} of docs/keys.md, run as written against a real gateway (master key
 * {@code sk-1234}), answers 200. The example key and token of the page stand for the ones the
 * page's own {@code /key/generate} call makes.
 */
class KeysDocCurlTest {
    private static final String EXAMPLE_KEY = "sk-b4urfP7IyCeUvnaCNZEUmg";
    private static final String EXAMPLE_TOKEN = "c5961911286c962d75287267e1203516e53700e33a2ed6543e505b5c9954a682";
    /** The order a reader would run them in: the team the key belongs to first, deletions last. */
    private static final List<String> ORDER = List.of("/team/new", "/key/generate", "/key/info", "/key/update", "/key/list",
            "/key/block", "/team/info", "/team/update", "/team/list", "/key/delete", "/team/delete");
    private static final Pattern CURL = Pattern.compile("curl -s(?:[^`\\n\\\\']|\\\\\\n|'[^']*')*");
    private static final Pattern TOKEN = Pattern.compile("'([^']*)'|(\\S+)");

    record Curl(String method, String path, List<String> headers, String body) {}

    @Test
    void everyCurlOfThePageWorksAsWritten() throws Exception {
        List<Curl> curls = curls(Files.readString(Path.of("docs", "keys.md")));
        assertThat(curls).extracting(Curl::path).map(p -> p.replaceAll("\\?.*", "")).containsAll(ORDER);
        curls.sort(Comparator.comparingInt(c -> ORDER.indexOf(c.path().replaceAll("\\?.*", ""))));

        try (TestGateway gateway = TestGateway.start("""
                model_list:
                  - {model_name: gpt-4o, litellm_params: {model: openai/gpt-4o, api_base: "http://127.0.0.1:9/v1"}}
                  - {model_name: gpt-4o-mini, litellm_params: {model: openai/gpt-4o-mini, api_base: "http://127.0.0.1:9/v1"}}
                general_settings:
                  master_key: sk-1234
                """)) {
            String key = null;
            String token = null;
            for (Curl curl : curls) {
                HttpResponse<String> response = gateway.send(request(gateway, curl, key, token));
                assertThat(response.statusCode()).as(curl + " answered " + response.body()).isEqualTo(200);
                if (key == null && curl.path().equals("/key/generate") && curl.body() != null) {
                    key = Json.parse(response.body().getBytes()).path("key").asText();
                    token = Json.parse(response.body().getBytes()).path("token").asText();
                }
            }
        }
    }

    private static HttpRequest request(TestGateway gateway, Curl curl, String key, String token) {
        String path = substitute(curl.path(), key, token);
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(gateway.baseUrl() + path)).timeout(Duration.ofSeconds(10));
        for (String header : curl.headers()) {
            int colon = header.indexOf(':');
            request.header(header.substring(0, colon).strip(), substitute(header.substring(colon + 1).strip(), key, token));
        }
        String body = curl.body() == null ? "" : substitute(curl.body(), key, token);
        return request.method(curl.method(), curl.method().equals("GET") ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body)).build();
    }

    private static String substitute(String text, String key, String token) {
        return key == null ? text : text.replace(EXAMPLE_KEY, key).replace(EXAMPLE_TOKEN, token);
    }

    static List<Curl> curls(String markdown) throws IOException {
        List<Curl> curls = new ArrayList<>();
        Matcher command = CURL.matcher(markdown);
        while (command.find()) {
            String line = command.group().replace("\\\n", " ");
            List<String> tokens = new ArrayList<>();
            Matcher token = TOKEN.matcher(line);
            while (token.find()) {
                tokens.add(token.group(1) != null ? token.group(1) : token.group(2));
            }
            String method = null;
            String url = null;
            String body = null;
            List<String> headers = new ArrayList<>();
            for (int i = 1; i < tokens.size(); i++) {
                switch (tokens.get(i)) {
                    case "-s" -> { }
                    case "-X" -> method = tokens.get(++i);
                    case "-H" -> headers.add(tokens.get(++i));
                    case "-d" -> body = tokens.get(++i);
                    default -> url = tokens.get(i);
                }
            }
            String path = url.replaceFirst("^(https?://)?localhost:4000", "");
            curls.add(new Curl(method != null ? method : body != null ? "POST" : "GET", path, headers, body));
        }
        return curls;
    }
}
