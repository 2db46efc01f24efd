package dev.sluice.vendors.mock;

import io.vertx.core.http.HttpMethod;

/**
 * What a request asks for, read from its method and path alone. OpenAI's paths
 * ({@code /chat/completions}, {@code /completions}, {@code /embeddings}, {@code /responses},
 * {@code /images/generations}, {@code /audio/speech}, {@code /audio/transcriptions},
 * {@code /audio/translations}, {@code /moderations}) and Cohere's {@code /rerank} are accepted with or without the {@code /v1} prefix; Azure's
 * {@code /openai/deployments/{deployment}/...} paths name the model in the path.
 *
 * @param deployment the Azure deployment, or {@code null} for OpenAI paths
 */
public record MockRoute(Kind kind, String deployment) {

    public enum Kind {
        CHAT, COMPLETION, EMBEDDING, RESPONSES, IMAGES, SPEECH, TRANSCRIPTION, TRANSLATION, MODERATION, RERANK, MODELS, ROOT,
        UNKNOWN;

        /** A call that reaches a model: counted, recorded and subject to the mode. */
        boolean isModelCall() {
            return this != MODELS && this != ROOT && this != UNKNOWN;
        }
    }

    private static final String AZURE_PREFIX = "/openai/deployments/";
    private static final MockRoute CHAT = new MockRoute(Kind.CHAT, null);
    private static final MockRoute COMPLETION = new MockRoute(Kind.COMPLETION, null);
    private static final MockRoute EMBEDDING = new MockRoute(Kind.EMBEDDING, null);
    private static final MockRoute RESPONSES = new MockRoute(Kind.RESPONSES, null);
    private static final MockRoute MODELS = new MockRoute(Kind.MODELS, null);
    private static final MockRoute ROOT = new MockRoute(Kind.ROOT, null);
    private static final MockRoute UNKNOWN = new MockRoute(Kind.UNKNOWN, null);

    static MockRoute match(HttpMethod method, String path) {
        if (method == HttpMethod.GET) {
            return switch (path) {
                case "/" -> ROOT;
                case "/v1/models", "/models" -> MODELS;
                default -> UNKNOWN;
            };
        }
        if (method != HttpMethod.POST) {
            return UNKNOWN;
        }
        if (path.startsWith(AZURE_PREFIX)) {
            return matchAzure(path.substring(AZURE_PREFIX.length()));
        }
        String operation = path.startsWith("/v1/") ? path.substring(3) : path;
        return switch (operation) {
            case "/chat/completions" -> CHAT;
            case "/completions" -> COMPLETION;
            case "/embeddings" -> EMBEDDING;
            case "/responses" -> RESPONSES;
            default -> media(operation, null);
        };
    }

    /** The image, audio, moderation and rerank paths ({@code /v2/rerank} too), or an unknown route. */
    private static MockRoute media(String operation, String deployment) {
        Kind kind = switch (operation) {
            case "/images/generations" -> Kind.IMAGES;
            case "/audio/speech" -> Kind.SPEECH;
            case "/audio/transcriptions" -> Kind.TRANSCRIPTION;
            case "/audio/translations" -> Kind.TRANSLATION;
            case "/moderations" -> Kind.MODERATION;
            case "/rerank", "/v2/rerank" -> Kind.RERANK;
            default -> Kind.UNKNOWN;
        };
        return kind == Kind.UNKNOWN ? UNKNOWN : new MockRoute(kind, deployment);
    }

    /** {@code rest} is what follows {@code /openai/deployments/}: {@code NAME/operation}. */
    private static MockRoute matchAzure(String rest) {
        int slash = rest.indexOf('/');
        if (slash <= 0) {
            return UNKNOWN;
        }
        String deployment = rest.substring(0, slash);
        return switch (rest.substring(slash)) {
            case "/chat/completions" -> new MockRoute(Kind.CHAT, deployment);
            case "/completions" -> new MockRoute(Kind.COMPLETION, deployment);
            case "/embeddings" -> new MockRoute(Kind.EMBEDDING, deployment);
            default -> media(rest.substring(slash), deployment);
        };
    }
}
