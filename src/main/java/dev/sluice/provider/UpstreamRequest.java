package dev.sluice.provider;

import java.util.Map;

/**
 * One HTTP call to a deployment, as a provider adapter lays it out.
 *
 * @param url     absolute URL
 * @param headers request headers besides Content-Type; secrets included
 * @param body    JSON body bytes
 */
public record UpstreamRequest(String url, Map<String, String> headers, byte[] body) {}
