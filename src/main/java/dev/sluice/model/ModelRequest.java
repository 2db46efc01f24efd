package dev.sluice.model;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A model call as its entry API decoded it: checked just enough to route it. Every rule of
 * the gateway (guardrails, token counts, budgets, routing overrides, adapters of other
 * dialects) reads {@link #body}, the call in OpenAI's form; the caller's own body is kept
 * whole beside it so a provider of the caller's dialect gets it as it was sent.
 *
 * @param operation     what is asked: a chat completion, a text completion, embeddings
 * @param dialect       the format the caller wrote {@code callerBody} in, and reads answers in
 * @param body          the call in OpenAI's form: the caller's body itself when it wrote OpenAI's,
 *                      else its translation; read, never changed
 * @param group         the model group the caller named
 * @param stream        whether the caller asked for a stream of events
 * @param vendorHeaders the caller's headers addressed to a vendor ({@link #VENDOR_HEADER_PREFIX}),
 *                      by lower-case name, for an adapter to pass on (Anthropic's {@code anthropic-beta})
 * @param callerBody    the caller's body as it was sent, in {@code dialect}; read, never changed
 * @param form          the caller's body as sent, when it is a multipart form ({@link Operation#takesForm()});
 *                      {@code body} then holds its text fields
 */
public record ModelRequest(Operation operation, Dialect dialect, ObjectNode body, String group, boolean stream,
        Map<String, String> vendorHeaders, ObjectNode callerBody, Optional<FormBody> form) {
    /** The prefix of the caller's headers a vendor adapter may pass on. */
    public static final String VENDOR_HEADER_PREFIX = "anthropic-";

    public ModelRequest {
        vendorHeaders = Map.copyOf(vendorHeaders);
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(callerBody, "callerBody");
        Objects.requireNonNull(form, "form");
    }


    /** A call written in OpenAI's form that addresses no header to a vendor. */
    public ModelRequest(Operation operation, Dialect dialect, ObjectNode body, String group, boolean stream) {
        this(operation, dialect, body, group, stream, Map.of(), body, Optional.empty());
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
        return kept.isEmpty() ? this : new ModelRequest(operation, dialect, body, group, stream, kept, callerBody, form);
    }

    /** Whether the caller wrote in {@code vendor}'s dialect, so its own body can go to that vendor untranslated. */
    public boolean writtenIn(Dialect vendor) {
        return dialect == vendor;
    }
}
