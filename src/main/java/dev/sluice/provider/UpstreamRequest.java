package dev.sluice.provider;

import java.util.List;
import java.util.Map;

/**
 * One HTTP call to a deployment, as a provider adapter lays it out.
 *
 * @param url           absolute URL
 * @param headers       request headers besides Content-Type; secrets included
 * @param body          JSON body bytes
 * @param droppedParams the caller's parameters the vendor cannot take, left out under
 *                      {@code drop_params}; the caller is told in a response header
 */
public record UpstreamRequest(String url, Map<String, String> headers, byte[] body, List<String> droppedParams) {
    public UpstreamRequest {
        droppedParams = List.copyOf(droppedParams);
    }

    /** A call that leaves nothing of the caller's out. */
    public UpstreamRequest(String url, Map<String, String> headers, byte[] body) {
        this(url, headers, body, List.of());
    }

    /** The same call with {@code headers} instead. */
    public UpstreamRequest withHeaders(Map<String, String> replaced) {
        return new UpstreamRequest(url, replaced, body, droppedParams);
    }
}
