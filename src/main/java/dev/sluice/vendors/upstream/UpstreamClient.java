package dev.sluice.vendors.upstream;

import dev.sluice.vendors.UpstreamRequest;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import java.net.MalformedURLException;
import java.net.URL;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Calls deployments over pooled keep-alive connections. One instance per event loop, so a
 * request and its upstream call stay on one thread.
 */
public final class UpstreamClient {
    /** Enough connections per upstream for long streams not to queue ordinary calls. */
    private static final int MAX_CONNECTIONS_PER_UPSTREAM = 4096;

    /** Parsed upstream URLs kept at most: they come from the config, so a handful in practice. */
    private static final int REMEMBERED_URLS = 1024;

    private final Vertx vertx;
    private final LongSupplier nanoTime;
    private final HttpClient http;
    /**
     * Upstream URLs already parsed: parsing one cost as much as the rest of preparing a call.
     * Used on this client's event loop only.
     */
    private final Map<String, URL> parsed = new HashMap<>();

    /** @param nanoTime a monotonic clock in nanoseconds, for deadlines */
    public UpstreamClient(Vertx vertx, LongSupplier nanoTime) {
        this.vertx = vertx;
        this.nanoTime = nanoTime;
        HttpClientOptions options = new HttpClientOptions()
                .setKeepAlive(true)
                .setTcpNoDelay(true)
                .setDecompressionSupported(false)
                .setKeepAliveTimeout(60);
        this.http = vertx.createHttpClient(options, new PoolOptions().setHttp1MaxSize(MAX_CONNECTIONS_PER_UPSTREAM));
    }

    /**
     * Starts the call and returns it at once, so it can be cancelled even before anything
     * comes back; {@link UpstreamExchange#answered()} completes when the answer's status
     * and headers arrive. {@code deadline} covers connecting, sending and the whole answer
     * until the caller re-arms or clears it.
     */
    public UpstreamExchange open(UpstreamRequest request, Duration deadline) {
        long deadlineMs = Math.max(1, deadline.toMillis());
        RequestOptions options = new RequestOptions()
                .setMethod(HttpMethod.POST)
                .setConnectTimeout(deadlineMs);
        if (!request.headers().containsKey(UpstreamRequest.CONTENT_TYPE)) {
            options.putHeader(UpstreamRequest.CONTENT_TYPE, "application/json");
        }
        target(options, request.url());
        for (Map.Entry<String, String> header : request.headers().entrySet()) {
            options.putHeader(header.getKey(), header.getValue());
        }
        UpstreamExchange exchange = new UpstreamExchange(vertx, nanoTime);
        exchange.armDeadline(deadlineMs, "no answer within " + deadline.toMillis() + " ms");
        exchange.send(http.request(options), request.body());
        return exchange;
    }

    /** Points {@code options} at {@code url}, as {@link RequestOptions#setAbsoluteURI(String)} would. */
    @SuppressWarnings("deprecation") // java.net.URL's parser is the one Vert.x uses for the same string
    private void target(RequestOptions options, String url) {
        URL known = parsed.get(url);
        if (known == null) {
            try {
                known = new URL(url);
            } catch (MalformedURLException e) {
                options.setAbsoluteURI(url); // fails the call as Vert.x describes a bad URL
                return;
            }
            if (parsed.size() < REMEMBERED_URLS) {
                parsed.put(url, known);
            }
        }
        options.setAbsoluteURI(known);
    }

    public io.vertx.core.Future<Void> close() {
        return http.close();
    }
}
