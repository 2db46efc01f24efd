package dev.sluice.server;

import io.vertx.core.http.HttpServerResponse;

/**
 * The {@code x-litellm-*} headers every routed answer carries, success or error, so a
 * caller can see which deployment of which group answered and what it took.
 */
final class RoutedHeaders {
    static final String MODEL_ID = "x-litellm-model-id";
    static final String MODEL_GROUP = "x-litellm-model-group";
    static final String ATTEMPTED_RETRIES = "x-litellm-attempted-retries";

    private RoutedHeaders() {}

    static void apply(HttpServerResponse response, String group, String deploymentId, int attemptedRetries) {
        if (response.headWritten()) {
            return;
        }
        response.putHeader(MODEL_GROUP, group)
                .putHeader(MODEL_ID, deploymentId)
                .putHeader(ATTEMPTED_RETRIES, Integer.toString(attemptedRetries));
    }
}
