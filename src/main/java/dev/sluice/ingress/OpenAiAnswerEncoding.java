package dev.sluice.ingress;

import io.vertx.core.buffer.Buffer;

/** Answers for a caller of OpenAI's APIs: the answer as the gateway reads it. */
enum OpenAiAnswerEncoding implements AnswerEncoding {
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
