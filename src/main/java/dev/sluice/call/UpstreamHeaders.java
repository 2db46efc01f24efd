package dev.sluice.call;

import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpServerResponse;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Which of a deployment's response headers reach the caller. {@code Retry-After} passes as
 * it is, so clients back off as the provider asked. Everything else the provider said (its
 * rate-limit counters, request ids) passes with an {@code llm_provider-} prefix, as LiteLLM
 * does: a provider's {@code x-ratelimit-*} describes the deployment's quota, not the
 * caller's, and must not be mistaken for Sluice's own. Framing headers never pass.
 */
final class UpstreamHeaders {
    static final String PREFIX = "llm_provider-";
    private static final Set<String> FRAMING = Set.of(
            "content-length", "content-type", "content-encoding", "transfer-encoding", "connection",
            "keep-alive", "date", "server", "upgrade", "trailer", "te", "proxy-connection");
    private static final Set<String> AS_IS = Set.of("retry-after", "retry-after-ms");

    private UpstreamHeaders() {}

    static void copy(MultiMap upstream, HttpServerResponse response) {
        if (response.headWritten()) {
            return;
        }
        for (Map.Entry<String, String> header : upstream) {
            String name = header.getKey().toLowerCase(Locale.ROOT);
            if (FRAMING.contains(name)) {
                continue;
            }
            response.headers().add(AS_IS.contains(name) ? name : PREFIX + name, header.getValue());
        }
    }
}
