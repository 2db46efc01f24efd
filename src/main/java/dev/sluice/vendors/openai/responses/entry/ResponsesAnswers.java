package dev.sluice.vendors.openai.responses.entry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.model.ChatAnswer;
import dev.sluice.vendors.entry.AnswerEncoding;
import dev.sluice.vendors.entry.PassedThroughStream;
import dev.sluice.vendors.entry.StreamEncoding;
import dev.sluice.vendors.openai.responses.ResponseMeta;
import dev.sluice.vendors.openai.responses.ResponsesApi;
import dev.sluice.vendors.openai.responses.ResponsesRequest;
import dev.sluice.vendors.openai.wire.OpenAiChat;
import dev.sluice.wire.Json;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.Optional;

/**
 * Answers for one caller of the Responses API. A deployment that serves the Responses API
 * itself answered in its shape and keeps the response itself, and the gateway records whose
 * its id is, so that only that key continues it; any other answered chat completions, which
 * are written as a {@code response} object (or its events) and kept here for a follow-up,
 * unless the caller said {@code store: false}.
 */
final class ResponsesAnswers implements AnswerEncoding {
    private final ResponsesRequest request;
    private final ResponseMeta meta;
    private final ResponseKeeper keeper;
    private final Optional<String> untranslatable;
    private final boolean claimsVendorIds;

    /**
     * @param untranslatable  why the call cannot go through chat completions, when it cannot
     * @param claimsVendorIds whether the id of a response the vendor keeps is recorded as the caller's
     */
    ResponsesAnswers(ResponsesRequest request, ResponseMeta meta, ResponseKeeper keeper, Optional<String> untranslatable,
            boolean claimsVendorIds) {
        this.request = request;
        this.meta = meta;
        this.keeper = keeper;
        this.untranslatable = untranslatable;
        this.claimsVendorIds = claimsVendorIds;
    }

    @Override
    public Buffer whole(WholeAnswer answer) {
        if (answer.passedThrough()) {
            if (claimsVendorIds) {
                VendorResponseIds.ofWhole(answer.upstream()).ifPresent(keeper::claim);
            }
            return answer.upstream();
        }
        ChatAnswer chat = OpenAiChat.decodeAnswer(answer.openAiTree().get());
        ObjectNode response = ResponsesApi.encodeResponse(chat, request, meta);
        keeper.keep(request, chat, response);
        return Json.buffer(response);
    }

    @Override
    public StreamEncoding stream(boolean passedThrough) {
        ResponsesEventStream translated = new ResponsesEventStream(request, meta, keeper);
        if (!passedThrough) {
            return translated;
        }
        PassedThroughStream relayed = new PassedThroughStream(translated);
        return claimsVendorIds ? new ClaimingStream(relayed, keeper) : relayed;
    }

    @Override
    public Optional<String> refusesTranslation() {
        return untranslatable;
    }

    @Override
    public Future<Void> settled() {
        return keeper.kept();
    }
}
