package dev.sluice.vendors.gemini.mock;

import io.vertx.core.http.HttpMethod;

/**
 * What a request to a Gemini mock asks for, read from its method and path: Google AI Studio's
 * {@code /v1beta/models/MODEL:METHOD} (or {@code /v1/models/...}) and Vertex AI's
 * {@code /v1/projects/P/locations/L/publishers/google/models/MODEL:METHOD} (or {@code /v1beta1/...}).
 *
 * @param model  the model named in the path, or null
 * @param method what follows the colon, e.g. {@code generateContent}
 * @param vertex whether the path was Vertex AI's
 */
record GeminiMockRoute(Kind kind, String model, String method, boolean vertex) {

    enum Kind { GENERATE, STREAM, EMBED, BATCH_EMBED, PREDICT, ROOT, UNKNOWN }

    private static final GeminiMockRoute ROOT = new GeminiMockRoute(Kind.ROOT, null, null, false);
    private static final GeminiMockRoute UNKNOWN = new GeminiMockRoute(Kind.UNKNOWN, null, null, false);
    private static final String VERTEX_PUBLISHER = "/publishers/google/models/";

    static GeminiMockRoute match(HttpMethod method, String path) {
        if (method == HttpMethod.GET) {
            return path.equals("/") ? ROOT : UNKNOWN;
        }
        if (method != HttpMethod.POST) {
            return UNKNOWN;
        }
        for (String prefix : new String[] {"/v1beta/models/", "/v1/models/", "/v1alpha/models/"}) {
            if (path.startsWith(prefix)) {
                return modelCall(path.substring(prefix.length()), false);
            }
        }
        int publisher = path.indexOf(VERTEX_PUBLISHER);
        boolean project = path.startsWith("/v1/projects/") || path.startsWith("/v1beta1/projects/");
        if (project && path.contains("/locations/") && publisher > 0) {
            return modelCall(path.substring(publisher + VERTEX_PUBLISHER.length()), true);
        }
        return UNKNOWN;
    }

    /** {@code rest} is {@code MODEL:METHOD}. */
    private static GeminiMockRoute modelCall(String rest, boolean vertex) {
        int colon = rest.lastIndexOf(':');
        if (colon <= 0) {
            return UNKNOWN;
        }
        String model = rest.substring(0, colon);
        String method = rest.substring(colon + 1);
        Kind kind = switch (method) {
            case "generateContent" -> Kind.GENERATE;
            case "streamGenerateContent" -> Kind.STREAM;
            case "embedContent" -> vertex ? Kind.UNKNOWN : Kind.EMBED;
            case "batchEmbedContents" -> vertex ? Kind.UNKNOWN : Kind.BATCH_EMBED;
            case "predict" -> vertex ? Kind.PREDICT : Kind.UNKNOWN;
            default -> Kind.UNKNOWN;
        };
        return kind == Kind.UNKNOWN ? UNKNOWN : new GeminiMockRoute(kind, model, method, vertex);
    }
}
