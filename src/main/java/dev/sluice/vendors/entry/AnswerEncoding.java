package dev.sluice.vendors.entry;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Writes one call's answer the way its caller reads it. Inside the gateway every answer is
 * read as OpenAI's chat completion (for usage, cost, guardrails); what the caller gets is
 * that, translated to its entry API, or the deployment's own body when the deployment speaks
 * the caller's dialect and was sent the caller's body untranslated.
 */
public interface AnswerEncoding {

    /**
     * A whole answer as the caller gets it.
     *
     * @param answer the answer as the deployment wrote it and as OpenAI's chat completion
     * @throws IllegalArgumentException when the answer cannot be written in the caller's dialect
     */
    Buffer whole(WholeAnswer answer);

    /** A writer for one stream's events. */
    StreamEncoding stream(boolean passedThrough);

    /**
     * Why this call cannot be translated for a deployment of another dialect, when it cannot:
     * it continues a conversation only the vendor of its own dialect holds, say. Such an
     * attempt is refused with a 400 naming the reason, and a deployment that takes the
     * caller's body untranslated may still answer.
     */
    default Optional<String> refusesTranslation() {
        return Optional.empty();
    }

    /**
     * Completes once what this encoding keeps of the answer it wrote (a response a later call
     * may continue) is kept, so that a caller who reads the answer can rely on it. Always
     * complete for an encoding that keeps nothing.
     */
    default Future<Void> settled() {
        return Future.succeededFuture();
    }

    /**
     * One whole answer.
     *
     * @param upstream      the body as the deployment wrote it
     * @param openAi        the same answer as OpenAI's chat completion
     * @param openAiTree    {@code openAi} parsed: asked for only by an encoding that
     *                      translates, since parsing an answer costs more than relaying it
     * @param passedThrough whether the deployment was sent the caller's own body, so
     *                      {@code upstream} is already in the caller's dialect
     */
    record WholeAnswer(Buffer upstream, Buffer openAi, Supplier<JsonNode> openAiTree, boolean passedThrough) {}
}
