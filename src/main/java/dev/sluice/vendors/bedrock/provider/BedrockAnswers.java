package dev.sluice.vendors.bedrock.provider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.model.ChatAnswer;
import dev.sluice.model.ModelRequest;
import dev.sluice.model.Operation;
import dev.sluice.vendors.EmbeddingAnswers;
import dev.sluice.vendors.OpenAiShape;
import dev.sluice.vendors.bedrock.wire.BedrockConverse;
import dev.sluice.vendors.bedrock.wire.BedrockEmbeddings;
import dev.sluice.vendors.openai.wire.OpenAiChat;
import dev.sluice.wire.Json;
import io.vertx.core.buffer.Buffer;
import java.time.Clock;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Bedrock's 2xx answers in OpenAI's shapes: a Converse answer as a {@code chat.completion}, an
 * InvokeModel embeddings answer as an embeddings list. The answer names the model group the
 * caller asked for, as Bedrock's answers name no model; Converse gives no id, so one is made.
 */
final class BedrockAnswers {
    private final Clock clock;
    private final Supplier<String> ids;

    BedrockAnswers(Clock clock, Supplier<String> ids) {
        this.clock = clock;
        this.ids = ids;
    }

    Optional<OpenAiShape.ShapedAnswer> shape(ModelRequest request, Buffer body) {
        JsonNode root = Json.parseOrEmpty(body).filter(JsonNode::isObject).orElse(null);
        if (root == null) {
            return Optional.empty();
        }
        ObjectNode shaped;
        try {
            if (request.operation() == Operation.EMBEDDINGS) {
                // Bedrock's token count header is not seen here: an answer without one in its body is counted.
                shaped = EmbeddingAnswers.finish(BedrockEmbeddings.decode(request.group(), root), request.body(), request.group());
            } else {
                ChatAnswer answer = BedrockConverse.decodeAnswer(root, nextId(), request.group(),
                        BedrockConverse.responseTool(request.body()));
                shaped = OpenAiChat.encodeAnswer(answer, clock.instant().getEpochSecond());
            }
        } catch (IllegalArgumentException unreadable) {
            return Optional.empty();
        }
        JsonNode usage = shaped.path("usage");
        return Optional.of(new OpenAiShape.ShapedAnswer(Json.buffer(shaped), shaped, usage.path("total_tokens").asLong(0),
                usage.path("completion_tokens").asLong(0)));
    }

    String nextId() {
        return "chatcmpl-" + ids.get();
    }

    long created() {
        return clock.instant().getEpochSecond();
    }
}
