package dev.sluice.fuzz;

import dev.sluice.testing.TestGateway;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Sends fuzzed requests to the gateway, through its HTTP client or as raw bytes over a socket
 * (for what a client refuses to send: bad request targets, a {@code Content-Length} the body
 * does not keep, {@code Expect}), and keeps what broke {@link FuzzAnswer}'s rules, or was not
 * answered within {@link #ANSWER_WITHIN}, as findings.
 */
final class FuzzClient {
    static final Duration ANSWER_WITHIN = Duration.ofSeconds(15);
    /** Past this many findings the run stops: they are enough to start from. */
    private static final int MOST_FINDINGS = 10;

    private final TestGateway gateway;
    /** Added to by probes that run at once. */
    private final List<String> findings = java.util.Collections.synchronizedList(new ArrayList<>());

    FuzzClient(TestGateway gateway) {
        this.gateway = gateway;
    }

    List<String> findings() {
        return findings;
    }

    boolean enoughFound() {
        return findings.size() >= MOST_FINDINGS;
    }

    void found(String finding) {
        findings.add(finding);
    }

    /** The answer to {@code request} of {@code path}, checked; null when there was none (a finding). */
    FuzzAnswer send(HttpRequest request, String path, String sent) {
        try {
            HttpResponse<String> answer = gateway.client().send(request, HttpResponse.BodyHandlers.ofString());
            return checked(new FuzzAnswer(answer.statusCode(), answer.headers().firstValue("Retry-After").isPresent(),
                    answer.body()), path, sent);
        } catch (HttpTimeoutException e) {
            findings.add("no answer within " + ANSWER_WITHIN + ": " + sent);
        } catch (IOException e) {
            findings.add("connection failed (" + e + "): " + sent);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return null;
    }

    /**
     * The answer to {@code head} (its lines, without the blank line that ends it) followed by
     * {@code body}, over a connection of its own that the gateway closes after answering;
     * checked, or null when there was none (a finding).
     */
    FuzzAnswer sendRaw(String path, String head, byte[] body, String sent) {
        try (Socket socket = new Socket("127.0.0.1", gateway.port())) {
            socket.setSoTimeout((int) ANSWER_WITHIN.toMillis());
            OutputStream out = socket.getOutputStream();
            out.write((head + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.write(body);
            out.flush();
            FuzzAnswer answer = parsed(readUntilClosed(socket));
            return answer == null ? unreadable(sent) : checked(answer, path, sent);
        } catch (SocketTimeoutException e) {
            findings.add("no answer within " + ANSWER_WITHIN + ": " + sent);
        } catch (IOException e) {
            findings.add("connection failed (" + e + "): " + sent);
        }
        return null;
    }

    private FuzzAnswer unreadable(String sent) {
        findings.add("no readable answer: " + sent);
        return null;
    }

    private FuzzAnswer checked(FuzzAnswer answer, String path, String sent) {
        answer.problem(path).ifPresent(problem -> findings.add(problem + " for " + sent));
        return answer;
    }

    /** What arrived before the gateway closed the connection (or reset it after answering). */
    private static byte[] readUntilClosed(Socket socket) throws IOException {
        ByteArrayOutputStream read = new ByteArrayOutputStream();
        byte[] chunk = new byte[8192];
        try {
            for (int n; (n = socket.getInputStream().read(chunk)) >= 0; ) {
                read.write(chunk, 0, n);
            }
        } catch (SocketTimeoutException e) {
            throw e;
        } catch (IOException reset) {
            if (read.size() == 0) {
                throw reset;
            }
        }
        return read.toByteArray();
    }

    /** The final answer in {@code bytes} (past any {@code 100 Continue}); null when there is none. */
    private static FuzzAnswer parsed(byte[] bytes) {
        String text = new String(bytes, StandardCharsets.ISO_8859_1);
        while (text.startsWith("HTTP/1.1 1") && text.contains("\r\n\r\n")) {
            text = text.substring(text.indexOf("\r\n\r\n") + 4);
        }
        int headEnd = text.indexOf("\r\n\r\n");
        if (!text.startsWith("HTTP/1.") || text.length() < 12 || headEnd < 0) {
            return null;
        }
        String head = text.substring(0, headEnd).toLowerCase(Locale.ROOT);
        String body = text.substring(headEnd + 4);
        if (head.contains("\ntransfer-encoding: chunked")) {
            body = dechunked(body);
        }
        return new FuzzAnswer(Integer.parseInt(text.substring(9, 12)), head.contains("\nretry-after:"),
                new String(body.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8));
    }

    private static String dechunked(String chunked) {
        StringBuilder body = new StringBuilder();
        int at = 0;
        while (at < chunked.length()) {
            int lineEnd = chunked.indexOf("\r\n", at);
            if (lineEnd < 0) {
                break;
            }
            int size = Integer.parseInt(chunked.substring(at, lineEnd).split(";", 2)[0].strip(), 16);
            if (size == 0 || lineEnd + 2 + size > chunked.length()) {
                break;
            }
            body.append(chunked, lineEnd + 2, lineEnd + 2 + size);
            at = lineEnd + 2 + size + 2;
        }
        return body.toString();
    }
}
