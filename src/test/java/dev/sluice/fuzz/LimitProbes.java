package dev.sluice.fuzz;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * Requests at the edges of the body limits, each sent once a run: JSON nested to just under
 * and just over {@code max_json_depth}, holding just under and just over
 * {@code max_json_tokens} (the sign-in's own, smaller limits on its route), 3 MB of
 * {@code {}} on the sign-in and the model routes, a {@code Content-Length} the body never
 * reaches (cut after {@code request_body_timeout_seconds} with a 408), and
 * {@code Expect: 100-continue} with lengths past every limit. Each must get the refusal it is
 * documented to get, and none a 500.
 */
final class LimitProbes {
    /** The limits of the gateway under test: general_settings' defaults. */
    static final int MAX_DEPTH = 128;
    static final int MAX_TOKENS = 250_000;
    /** The sign-in's limits, smaller than any setting: BodyLimits.UNAUTHENTICATED_*. */
    private static final int SIGN_IN_DEPTH = 4;
    private static final int SIGN_IN_TOKENS = 64;
    private static final int SIGN_IN_BYTES = 4096;
    private static final String SESSION = "/ui/api/session";
    /** What an answer under every limit may not be. */
    private static final Set<String> LIMIT_CODES = Set.of("json_too_deep", "json_too_large", "request_too_large");

    private final FuzzClient client;
    private final Function<String, URI> uri;
    private final String master;

    LimitProbes(FuzzClient client, Function<String, URI> uri, String master) {
        this.client = client;
        this.uri = uri;
        this.master = master;
    }

    void run() {
        for (String path : new String[] {"/v1/chat/completions", "/v1/messages", "/key/generate"}) {
            String body = path.equals("/key/generate") ? "{\"key_alias\": \"limits\"" : path.equals("/v1/messages")
                    ? "{\"model\": \"fuzz-chat\", \"max_tokens\": 5, \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]"
                    : "{\"model\": \"fuzz-chat\", \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]";
            expectUnder(path, nested(body, MAX_DEPTH), "nested " + MAX_DEPTH + " deep");
            expect(path, nested(body, MAX_DEPTH + 1), 400, "json_too_deep", "nested " + (MAX_DEPTH + 1) + " deep");
            expectUnder(path, padded(body, MAX_TOKENS), MAX_TOKENS + " tokens");
            expect(path, padded(body, MAX_TOKENS + 2), 413, "json_too_large", (MAX_TOKENS + 2) + " tokens");
            expect(path, emptyObjects(3 * 1024 * 1024), 413, "json_too_large", "3 MB of {}");
        }
        String signIn = "{\"key\": \"sk-not-a-key\"";
        expectUnder(SESSION, nested(signIn, SIGN_IN_DEPTH), "a sign-in nested " + SIGN_IN_DEPTH + " deep");
        expect(SESSION, nested(signIn, SIGN_IN_DEPTH + 1), 400, "json_too_deep", "a sign-in nested " + (SIGN_IN_DEPTH + 1) + " deep");
        expectUnder(SESSION, padded(signIn, SIGN_IN_TOKENS), "a sign-in of " + SIGN_IN_TOKENS + " tokens");
        expect(SESSION, padded(signIn, SIGN_IN_TOKENS + 2), 413, "json_too_large", "a sign-in of " + (SIGN_IN_TOKENS + 2) + " tokens");
        expect(SESSION, emptyObjects(SIGN_IN_BYTES + 1), 413, "request_too_large", "a sign-in of 4097 bytes");
        expect(SESSION, emptyObjects(3 * 1024 * 1024), 413, "request_too_large", "a sign-in of 3 MB of {}");
        declaredButNotSent();
    }

    /** Bodies that say more than they send: cut when silent, refused at once when too large to wait for. */
    private void declaredButNotSent() {
        String chat = "{\"model\": \"fuzz-chat\", \"messages\": [";
        List<Runnable> probes = new ArrayList<>();
        for (String path : new String[] {"/v1/chat/completions", "/key/generate", SESSION}) {
            probes.add(() -> rawExpect(path, 1000, false, chat, 408, "request_timeout",
                    "Content-Length 1000 with " + chat.length() + " bytes sent"));
            probes.add(() -> rawExpect(path, 1000, true, "", 408, "request_timeout",
                    "Expect: 100-continue, Content-Length 1000, nothing sent"));
            probes.add(() -> rawExpect(path, 1L << 40, true, "", 413, "request_too_large", "Expect: 100-continue, Content-Length 2^40"));
            probes.add(() -> rawExpect(path, Long.MAX_VALUE, true, "", 413, "request_too_large",
                    "Expect: 100-continue, Content-Length 2^63-1"));
        }
        probes.add(() -> rawExpect(SESSION, SIGN_IN_BYTES + 1, true, "", 413, "request_too_large",
                "Expect: 100-continue on a sign-in of 4097 bytes"));
        // At once: each silent body takes the idle timeout to be cut, and they need not wait for each other.
        List<Thread> threads = probes.stream().map(probe -> Thread.ofVirtual().start(probe)).toList();
        for (Thread thread : threads) {
            try {
                if (!thread.join(FuzzClient.ANSWER_WITHIN.multipliedBy(2))) {
                    client.found("a probe of a declared body was still waiting after " + FuzzClient.ANSWER_WITHIN.multipliedBy(2));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    private void rawExpect(String path, long declared, boolean expectContinue, String sent, int status, String code,
            String what) {
        String head = "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAuthorization: Bearer "
                + master + "\r\nContent-Length: " + declared + (expectContinue ? "\r\nExpect: 100-continue" : "");
        FuzzAnswer answer = client.sendRaw(path, head, sent.getBytes(StandardCharsets.US_ASCII), what + " to " + path);
        check(path, answer, status, code, what);
    }

    private void expect(String path, String body, int status, String code, String what) {
        check(path, post(path, body, what), status, code, what);
    }

    private void check(String path, FuzzAnswer answer, int status, String code, String what) {
        if (answer != null && (answer.status() != status || !answer.says(code))) {
            client.found(what + " to " + path + ": expected " + status + " " + code + ", got " + answer.status() + " "
                    + FuzzAnswer.abbreviated(answer.body()));
        }
    }

    /** Just under the limits, a body may be refused for what it says, never for its size. */
    private void expectUnder(String path, String body, String what) {
        FuzzAnswer answer = post(path, body, what);
        if (answer != null && (answer.status() == 413 || LIMIT_CODES.contains(answer.errorCode()))) {
            client.found(what + " to " + path + ", within the limits, was refused: " + answer.status() + " "
                    + FuzzAnswer.abbreviated(answer.body()));
        }
    }

    private FuzzAnswer post(String path, String body, String what) {
        HttpRequest request = HttpRequest.newBuilder(uri.apply(path)).timeout(FuzzClient.ANSWER_WITHIN)
                .header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + master)
                .header("anthropic-version", "2023-06-01")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        return client.send(request, path, what + " to " + path);
    }

    /** {@code open} (an object not yet closed) with a field of arrays nested to make the whole {@code depth} deep. */
    static String nested(String open, int depth) {
        int arrays = depth - 1; // the object itself is the first level
        return open + ", \"fuzz_nested\": " + "[".repeat(arrays) + "]".repeat(arrays) + "}";
    }

    /**
     * {@code open} (an object not yet closed) with a field of empty objects making it
     * {@code tokens} tokens in all, or one more when the count is odd.
     */
    static String padded(String open, int tokens) {
        int field = 1 + 2; // its name, and the array's start and end
        int objects = (tokens - tokens(open + "}") - field) / 2;
        StringBuilder body = new StringBuilder(open).append(", \"fuzz_padding\": [");
        for (int i = 0; i < objects; i++) {
            body.append(i == 0 ? "{}" : ",{}");
        }
        String padded = body.append("]}").toString();
        if (tokens(padded) > tokens + 1 || tokens(padded) < tokens - 1) {
            throw new IllegalStateException("padding miscounted: " + tokens(padded) + " tokens for " + tokens);
        }
        return padded;
    }

    /** An array of empty objects, {@code bytes} long or one byte more. */
    static String emptyObjects(int bytes) {
        StringBuilder body = new StringBuilder(bytes + 3).append("[{}");
        while (body.length() < bytes - 1) {
            body.append(",{}");
        }
        return body.append(']').toString();
    }

    /** How many tokens Jackson reads in {@code json}. */
    static int tokens(String json) {
        try (JsonParser parser = new JsonFactory().createParser(json)) {
            int count = 0;
            while (parser.nextToken() != null) {
                count++;
            }
            return count;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
