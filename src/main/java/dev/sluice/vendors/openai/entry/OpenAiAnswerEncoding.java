package dev.sluice.vendors.openai.entry;

import dev.sluice.vendors.entry.AnswerEncoding;
import dev.sluice.vendors.entry.StreamEncoding;
import io.vertx.core.buffer.Buffer;

/** Answers for a caller of OpenAI's APIs: the answer as the gateway reads it. */
public enum OpenAiAnswerEncoding implements AnswerEncoding {
    INSTANCE;

    @Override
    public Buffer whole(WholeAnswer answer) {
        return answer.openAi();
    }

    @Override
    public StreamEncoding stream(boolean passedThrough) {
        return StreamEncoding.openAi();
    }
}
