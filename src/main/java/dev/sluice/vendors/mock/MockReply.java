package dev.sluice.vendors.mock;

import io.vertx.core.buffer.Buffer;
import java.util.List;
import java.util.function.Supplier;

/**
 * One model call of the OpenAI mock and the two ways it can be answered: whole, or as
 * server-sent events. Each API (chat and text completions, embeddings, Responses) builds its
 * own; {@link MockHandler} decides from the mode whether, when and how much of it is sent.
 * Neither answer is built until it is asked for, so a call that fails or hangs builds none.
 *
 * @param call   what the modes' checks read: the model, the prompt's texts and size
 * @param stream the caller asked for server-sent events
 * @param whole  the JSON body of the answer
 * @param events the answer's events, each one write, in order
 */
record MockReply(MockCall call, boolean stream, Supplier<Buffer> whole, Supplier<List<Buffer>> events) {}
