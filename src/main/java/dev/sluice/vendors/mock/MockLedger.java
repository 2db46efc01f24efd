package dev.sluice.vendors.mock;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpConnection;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What one mock has seen, for tests to assert on: counters, and the bodies and headers of
 * the last {@value #KEPT} model calls. Written on the event loop, read from any thread.
 *
 * <p>Bodies and headers are kept as pairs, so index {@code i} of both lists describes the
 * same call; a body that was not a JSON object is kept as its tree, or as JSON null when it
 * was not JSON at all. Header names are kept in lower case; repeated headers are joined
 * with {@code ", "}.
 */
public final class MockLedger {

    public static final int KEPT = 1000;

    private final AtomicInteger modelCalls = new AtomicInteger();
    private final AtomicInteger clientsGone = new AtomicInteger();
    private final AtomicInteger openConnections = new AtomicInteger();
    private final ArrayDeque<Received> received = new ArrayDeque<>();

    private record Received(JsonNode body, Map<String, String> headers) {}

    /**
     * Records a model call sent with {@code rawBody}, and returns that body as JSON: empty,
     * and kept as JSON null, when it is not JSON at all.
     */
    public Optional<JsonNode> recordCall(Buffer rawBody, MultiMap headers) {
        Optional<JsonNode> body = MockJson.parse(rawBody);
        recordCall(body.orElse(NullNode.getInstance()), headers);
        return body;
    }

    public void recordCall(JsonNode body, MultiMap headers) {
        modelCalls.incrementAndGet();
        Received call = new Received(body, flatten(headers));
        synchronized (received) {
            if (received.size() == KEPT) {
                received.removeFirst();
            }
            received.addLast(call);
        }
    }

    /** A client closed its connection before the mock finished answering. */
    public void recordClientGone() {
        clientsGone.incrementAndGet();
    }

    /** Counts the connection as open until it closes. */
    void watch(HttpConnection connection) {
        openConnections.incrementAndGet();
        connection.closeHandler(closed -> openConnections.decrementAndGet());
    }

    int modelCalls() {
        return modelCalls.get();
    }

    int clientsGone() {
        return clientsGone.get();
    }

    int openConnections() {
        return openConnections.get();
    }

    List<JsonNode> bodies() {
        synchronized (received) {
            return received.stream().map(Received::body).toList();
        }
    }

    List<Map<String, String>> headers() {
        synchronized (received) {
            return received.stream().map(Received::headers).toList();
        }
    }

    /** Forgets the calls and zeroes the counters; open connections are live, so they stay. */
    void reset() {
        synchronized (received) {
            received.clear();
            modelCalls.set(0);
            clientsGone.set(0);
        }
    }

    private static Map<String, String> flatten(MultiMap headers) {
        Map<String, String> flat = new LinkedHashMap<>();
        for (Map.Entry<String, String> header : headers) {
            flat.merge(header.getKey().toLowerCase(Locale.ROOT), header.getValue(), (a, b) -> a + ", " + b);
        }
        return Collections.unmodifiableMap(flat);
    }
}
