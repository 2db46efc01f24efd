package dev.sluice.vendors.vertex.provider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.config.Deployment;
import dev.sluice.model.Dialect;
import dev.sluice.model.ModelRequest;
import dev.sluice.model.Operation;
import dev.sluice.vendors.OpenAiShape;
import dev.sluice.vendors.UpstreamRequest;
import dev.sluice.vendors.stream.StreamTranslator;
import io.vertx.core.buffer.Buffer;
import java.util.Map;
import java.util.Optional;

/**
 * One publisher's models on Vertex AI: Google's Gemini ({@code generateContent}), and others
 * such as Anthropic's Claude ({@code rawPredict}) beside it. A family writes the body, picks the
 * method on its publisher's model URL and reads the answers; {@link VertexProvider} adds what
 * every family shares: the project, location and host ({@link VertexEndpoints}), the OAuth2
 * token ({@link VertexCredentials}) and Google's error handling.
 */
public interface VertexFamily {

    /** Whether this family serves {@code model}, the deployment's model after {@code vertex_ai/}. */
    boolean serves(String model);

    /**
     * The call, headers besides the token included.
     *
     * @param body          the caller's OpenAI body, {@code model} set to the provider model
     * @param dropParams    whether what the vendor cannot take is dropped rather than refused
     * @param callerHeaders the caller's headers addressed to a vendor ({@code anthropic-beta}), by lower-case name
     */
    UpstreamRequest request(Deployment deployment, Operation operation, ObjectNode body, boolean dropParams,
            Map<String, String> callerHeaders);

    /**
     * The dialect a caller must write in for its own body to go to this family untranslated
     * ({@link #passThrough}); by default none but OpenAI's, which every family translates.
     */
    default Dialect dialect() {
        return Dialect.OPENAI;
    }

    /** The call with the caller's own body, written in this family's {@link #dialect()}. */
    default UpstreamRequest passThrough(Deployment deployment, ModelRequest request) {
        throw new IllegalStateException("this Vertex AI family takes no body untranslated");
    }

    StreamTranslator streamTranslator(Deployment deployment, ModelRequest request);

    /** A 2xx body answering {@code request}, in OpenAI's shape. */
    Optional<OpenAiShape.ShapedAnswer> normaliseSuccess(ModelRequest request, Buffer body);

    /** Whether a 2xx body is written in this family's format, for answers read without their request (health probes). */
    boolean readsAnswer(JsonNode tree);

    /** {@link #normaliseSuccess(ModelRequest, Buffer)} without the request: a health probe's answer. */
    Optional<OpenAiShape.ShapedAnswer> normaliseSuccess(Buffer body);
}
