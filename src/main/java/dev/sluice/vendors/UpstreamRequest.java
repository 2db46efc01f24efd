package dev.sluice.vendors;

import java.util.List;
import java.util.Map;

/**
 * One HTTP call to a deployment, as a provider adapter lays it out.
 *
 * @param url           absolute URL
 * @param headers       request headers, Content-Type only for a body other than JSON; secrets included
 * @param body          body bytes: JSON unless {@code headers} names another {@link #CONTENT_TYPE}
 * @param droppedParams the caller's parameters the vendor cannot take, left out under
 *                      {@code drop_params}; the caller is told in a response header
 */
public record UpstreamRequest(String url, Map<String, String> headers, byte[] body, List<String> droppedParams) {
    /** The header a body other than JSON names its type in. */
    public static final String CONTENT_TYPE = "Content-Type";

    public UpstreamRequest {
        droppedParams = List.copyOf(droppedParams);
    }

    /** A call that leaves nothing of the caller's out. */
    public UpstreamRequest(String url, Map<String, String> headers, byte[] body) {
        this(url, headers, body, List.of());
    }

    /** The same call with a body of another type: {@code body}, sent as {@code contentType}. */
    public UpstreamRequest withForm(byte[] replaced, String contentType) {
        Map<String, String> withType = new java.util.LinkedHashMap<>(headers);
        withType.put(CONTENT_TYPE, contentType);
        return new UpstreamRequest(url, withType, replaced, droppedParams);
    }

    /** The same call with {@code headers} instead. */
    public UpstreamRequest withHeaders(Map<String, String> replaced) {
        return new UpstreamRequest(url, replaced, body, droppedParams);
    }
}
