package dev.sluice.call;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.accounts.CallEnd;
import dev.sluice.accounts.spend.TokenUsage;
import dev.sluice.call.cache.CachePlan;
import dev.sluice.call.cache.CachedAnswer;
import dev.sluice.config.Deployment;
import dev.sluice.failure.Failure;
import dev.sluice.failure.FailureText;
import dev.sluice.ops.callbacks.CallRecord;
import dev.sluice.ops.callbacks.Callbacks;
import dev.sluice.ops.callbacks.LiteLlmErrors;
import dev.sluice.router.RouteOutcome;
import dev.sluice.time.TimeSource;
import dev.sluice.vendors.Providers;
import dev.sluice.vendors.stream.StreamTranslator;
import dev.sluice.wire.Json;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * The one hook between the call path and the logging callbacks: what one call did, gathered
 * as it happens, built into a {@link CallRecord} when the call's accounting ends (its ticket
 * is finished) and offered to the callbacks. It listens to a call only when a callback is
 * configured; without one the call has no recording and does nothing more.
 *
 * <p>It hears five of the call's events:
 * <ol>
 *   <li>{@link #admitted}: the call was admitted (what it asks and who asks go on its record);
 *   <li>{@link #streamStarted}: a stream attempt began (its events pass through a {@link StreamWatch});
 *   <li>{@link #routed}: routing ended, served or failed, before the answer is written (the
 *       call's span hears of it then, as a failed call's span ends with its error); a
 *       cancelled call is not recorded as routed;
 *   <li>{@link #wholeAnswerWriting}: a whole answer is about to be written;
 *   <li>{@link #settled}: the call's ticket was finished, with its tokens, status and cost.
 * </ol>
 * A call the response cache answers is told once, by {@link #answeredFromCache}: it is a success that
 * cost nothing, with {@code cache_hit} set. The record's {@code cacheKey} is the call's key
 * whenever the cache was asked. Prompts and answers are kept only with message logging on, and only up
 * to {@link #KEPT_BYTES} each, so a callback's queue stays bounded in memory.
 */
final class CallRecording implements CallListener {
    /** The largest request or answer body a record keeps; a larger one is named by its size. */
    static final int KEPT_BYTES = 32 * 1024;
    /** The longest stream text a record keeps. */
    static final int KEPT_CHARS = KEPT_BYTES;
    static final String TRUNCATED = "... (truncated)";

    private final String callId;
    private final Callbacks callbacks;
    private final Providers providers;
    private final LongSupplier nanoTime;
    private final Instant start;
    private final long startNanos;
    /** The call as admitted: only an admitted call is routed, settled or answered from the cache. */
    private AdmittedCall admitted;
    private StreamWatch stream;
    private long answeredNanos;
    private JsonNode answer;
    private int unkeptAnswerBytes;
    private RouteOutcome.FailedAt failure;
    private Deployment routedTo;
    private boolean offered;
    private boolean cacheHit;

    /** @param providers what masks a deployment's key in the record's error */
    CallRecording(String callId, Callbacks callbacks, Providers providers, TimeSource time) {
        this.callId = callId;
        this.callbacks = callbacks;
        this.providers = providers;
        this.nanoTime = time.ticker();
        this.start = time.clock().instant();
        this.startNanos = nanoTime.getAsLong();
    }

    /** The call was admitted: what it asks, who asks, and its tags go on its record. */
    @Override
    public void admitted(AdmittedCall call) {
        admitted = call;
    }

    /** A stream attempt began: its events are watched for the record; an earlier attempt's are forgotten. */
    @Override
    public StreamTranslator streamStarted(StreamTranslator translator) {
        stream = new StreamWatch(translator, nanoTime, callbacks.logsMessages());
        return stream;
    }

    /** Routing ended: what served, or what failed last; the call's span is told what is known. */
    @Override
    public void routed(RouteOutcome<Answer> outcome) {
        if (outcome.cancelled()) {
            return; // the caller left or the gateway stopped: the call's ending tells the record
        }
        failure = outcome.failure().orElse(null);
        routedTo = failure != null ? failure.deployment().orElse(null) : outcome.lastDeployment();
        if (!callbacks.describesSpans()) {
            return;
        }
        boolean served = outcome.served().isPresent();
        int status = served ? 200 : failure == null || failure.failure().status() <= 0 ? 500 : failure.failure().status();
        String group = outcome.lastGroup() == null ? admitted.groupName() : outcome.lastGroup();
        callbacks.routed(build(new CallEnd(group, Optional.ofNullable(routedTo), 0, 0, status), 0, served));
    }

    /** A whole answer is about to be written: it is the record's response (a stream's events were watched instead). */
    @Override
    public void wholeAnswerWriting(Answer.Whole whole) {
        answeredNanos = nanoTime.getAsLong();
        if (stream != null) {
            return;
        }
        if (whole.body().length() > KEPT_BYTES) {
            unkeptAnswerBytes = whole.body().length();
            return;
        }
        try {
            answer = Json.parse(whole.body().getBytes());
        } catch (IOException notJson) {
            answer = JsonNodeFactory.instance.textNode(whole.body().toString());
        }
    }

    /** The response cache answered the call with {@code hit}, ending it as {@code end}: its record goes to the callbacks. */
    @Override
    public void answeredFromCache(CachedAnswer hit, CallEnd end) {
        cacheHit = true;
        wholeAnswerWriting(new Answer.Whole(hit.status(), Buffer.buffer(hit.body()), hit.contentType(), MultiMap.caseInsensitiveMultiMap(),
                TokenUsage.NONE));
        if (!offered) {
            offered = true;
            callbacks.offer(build(end, 0, true));
        }
    }

    /** The call's ticket was finished, costing {@code cost}: its record goes to the callbacks, once. */
    @Override
    public void settled(CallEnd end, double cost) {
        if (offered || cost < 0) {
            return;
        }
        offered = true;
        boolean success = end.deployment().isPresent() && end.status() < 400 && (stream == null || stream.finished());
        callbacks.offer(build(end, cost, success));
    }

    private CallRecord build(CallEnd end, double cost, boolean success) {
        Optional<Deployment> deployment = end.deployment().or(() -> Optional.ofNullable(routedTo));
        CallRecord.Served served = deployment.map(d -> new CallRecord.Served(d.id(), d.params().provider(),
                d.params().providerModel(), d.params().endpoint().apiBase().orElse(null))).orElse(null);
        CallRecord.Result result = new CallRecord.Result(success, end.status(), end.promptTokens(), end.completionTokens(),
                Math.max(0, cost), responseModel(), finishReasons(), response(), success ? null : error(end.status(), deployment));
        long now = nanoTime.getAsLong();
        Instant ended = start.plusNanos(now - startNanos);
        long firstNanos = stream != null && stream.firstEventNanos() != 0 ? stream.firstEventNanos() : answeredNanos;
        Instant first = firstNanos == 0 ? ended : start.plusNanos(firstNanos - startNanos);
        return new CallRecord(callId, CallRecordParts.request(admitted, end.group(), callbacks.logsMessages()),
                served, result, new CallRecord.Timing(start, first, ended), CallRecordParts.key(admitted.caller()), cacheHit,
                admitted.resolved().cachePlan().map(CachePlan::key).orElse(null));
    }

    private String responseModel() {
        if (stream != null) {
            return stream.model();
        }
        return answer != null && answer.path("model").isTextual() ? answer.get("model").textValue() : null;
    }

    private List<String> finishReasons() {
        List<String> reasons = new ArrayList<>();
        if (stream != null) {
            if (stream.finishReason() != null) {
                reasons.add(stream.finishReason());
            }
            return reasons;
        }
        if (answer != null) {
            answer.path("choices").forEach(choice -> {
                if (choice.path("finish_reason").isTextual()) {
                    reasons.add(choice.get("finish_reason").textValue());
                }
            });
            if (answer.path("stop_reason").isTextual()) {
                reasons.add(answer.get("stop_reason").textValue()); // Anthropic's Messages API
            }
        }
        return reasons;
    }

    /** The answer for the record: only with message logging on. */
    private JsonNode response() {
        if (!callbacks.logsMessages()) {
            return null;
        }
        if (stream != null) {
            ObjectNode assembled = JsonNodeFactory.instance.objectNode();
            assembled.put("object", "chat.completion").put("model", stream.model());
            ObjectNode choice = assembled.putArray("choices").addObject();
            choice.put("index", 0).putObject("message").put("role", "assistant").put("content", stream.text());
            choice.put("finish_reason", stream.finishReason());
            return assembled;
        }
        if (unkeptAnswerBytes > 0) {
            return JsonNodeFactory.instance.textNode("(not kept: the answer is " + unkeptAnswerBytes
                    + " bytes, over the " + KEPT_BYTES + " a callback record keeps)");
        }
        return answer;
    }

    private CallRecord.Error error(int status, Optional<Deployment> deployment) {
        String provider = deployment.map(d -> d.params().provider()).orElse(null);
        if (failure != null) {
            Failure failed = failure.failure();
            int code = failed.status() > 0 ? failed.status() : status;
            // Masked before the quote of a body is cut: a key across the cut would no longer be found.
            String message = failure.deployment().map(d -> FailureText.of(failed, KeyMask.of(providers, d)::text))
                    .orElseGet(() -> FailureText.of(failed));
            return new CallRecord.Error(message, LiteLlmErrors.className(failed.kind(), code), Integer.toString(code), provider);
        }
        if (status == CallEnd.CLIENT_CLOSED) {
            return new CallRecord.Error("the caller closed the connection before the answer ended", null, "499", provider);
        }
        if (stream != null && !stream.finished() && status < 400) {
            return new CallRecord.Error("the stream broke off after its first event, before its finish_reason or [DONE]",
                    "APIConnectionError", Integer.toString(status), provider);
        }
        if (status == 503) {
            return new CallRecord.Error("the gateway stopped before the call was answered", "ServiceUnavailableError", "503",
                    provider);
        }
        return new CallRecord.Error("the call ended with status " + status, status >= 500 ? "InternalServerError" : null,
                Integer.toString(status), provider);
    }
}
