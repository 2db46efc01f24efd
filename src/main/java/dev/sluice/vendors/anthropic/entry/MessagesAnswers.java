package dev.sluice.vendors.anthropic.entry;

import dev.sluice.model.ChatAnswer;
import dev.sluice.vendors.anthropic.wire.AnthropicMessages;
import dev.sluice.vendors.entry.AnswerEncoding;
import dev.sluice.vendors.entry.PassedThroughStream;
import dev.sluice.vendors.entry.StreamEncoding;
import dev.sluice.vendors.openai.wire.OpenAiChat;
import dev.sluice.wire.Json;
import io.vertx.core.buffer.Buffer;
import java.util.Optional;

/**
 * Answers for a caller of the Messages API: a deployment that was sent the caller's own body
 * answered in Anthropic's shape already and its answer goes as it came; any other answer is
 * read as OpenAI's chat completion and written as a Messages answer, its id as Anthropic's
 * {@code msg_} ids read.
 */
final class MessagesAnswers implements AnswerEncoding {
    /** A call every deployment can be sent. */
    static final MessagesAnswers TRANSLATABLE = new MessagesAnswers(Optional.empty());
    static final String ID_PREFIX = "msg_";

    private final Optional<String> untranslatable;

    /** @param untranslatable why the call goes only to deployments that take the caller's body, when it does */
    MessagesAnswers(Optional<String> untranslatable) {
        this.untranslatable = untranslatable;
    }

    @Override
    public Optional<String> refusesTranslation() {
        return untranslatable;
    }

    @Override
    public Buffer whole(WholeAnswer answer) {
        if (answer.passedThrough()) {
            return answer.upstream();
        }
        ChatAnswer read = OpenAiChat.decodeAnswer(answer.openAiTree().get());
        ChatAnswer named = new ChatAnswer(messageId(read.id()), read.model(), read.content(), read.finishReason(), read.usage());
        return Json.buffer(AnthropicMessages.encodeAnswer(named));
    }

    @Override
    public StreamEncoding stream(boolean passedThrough) {
        MessagesEventStream translated = new MessagesEventStream();
        return passedThrough ? new PassedThroughStream(translated) : translated;
    }

    static String messageId(String id) {
        return id.startsWith(ID_PREFIX) ? id : ID_PREFIX + id;
    }
}
