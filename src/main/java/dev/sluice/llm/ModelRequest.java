package dev.sluice.llm;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A model call as its entry API decoded it: checked just enough to route it, with the
 * caller's body kept whole so a provider of the same dialect gets it as it was sent.
 *
 * @param operation     what is asked: a chat completion, a text completion, embeddings
 * @param dialect       the format {@code body} is written in
 * @param body          the caller's body; read, never changed
 * @param group         the model group the caller named
 * @param stream        whether the caller asked for server-sent events
 * @param vendorHeaders the caller's headers addressed to a vendor ({@link #VENDOR_HEADER_PREFIX}),
 *                      by lower-case name, for an adapter to pass on (Anthropic's {@code anthropic-beta})
 */
public record ModelRequest(Operation operation, Dialect dialect, ObjectNode body, String group, boolean stream,
        Map<String, String> vendorHeaders) {
    /** The prefix of the caller's headers a vendor adapter may pass on. */
    public static final String VENDOR_HEADER_PREFIX = "anthropic-";

    public ModelRequest {
        vendorHeaders = Map.copyOf(vendorHeaders);
    }

    /** A call that addresses no header to a vendor. */
    public ModelRequest(Operation operation, Dialect dialect, ObjectNode body, String group, boolean stream) {
        this(operation, dialect, body, group, stream, Map.of());
    }

    /**
     * The same call with the vendor headers among {@code callerHeaders} (a header sent twice is
     * joined with commas, as HTTP allows).
     */
    public ModelRequest withVendorHeaders(Iterable<Map.Entry<String, String>> callerHeaders) {
        Map<String, String> kept = new TreeMap<>();
        for (Map.Entry<String, String> header : callerHeaders) {
            String name = header.getKey().toLowerCase(Locale.ROOT);
            if (name.startsWith(VENDOR_HEADER_PREFIX)) {
                kept.merge(name, header.getValue(), (a, b) -> a + "," + b);
            }
        }
        return kept.isEmpty() ? this : new ModelRequest(operation, dialect, body, group, stream, kept);
    }
}
