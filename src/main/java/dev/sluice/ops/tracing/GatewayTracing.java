package dev.sluice.ops.tracing;

import dev.sluice.failure.Failure;
import dev.sluice.failure.FailureClass;
import dev.sluice.router.RouterEvents;
import dev.sluice.router.SkipReason;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * OpenTelemetry spans for model calls: one {@code SERVER} span per request and, under it, one
 * {@code CLIENT} span per attempt on a deployment. Retries, failovers, fallbacks and skipped
 * fallbacks are events on the request's span. Benches are not: they belong to no one call, and
 * the metrics count them.
 *
 * <h2>Design notes</h2>
 * <b>The truth about failures.</b> An attempt that failed has its span's status set to
 * {@code ERROR}, an {@code exception} event with the failure's class and cause, and, when the
 * upstream answered, {@code http.response.status_code}: a 500 from a deployment never leaves a
 * span reading as a success, whatever the request's final answer was. The request's span
 * carries the status the caller got, and is an error when that is a 5xx (OpenTelemetry's rule
 * for server spans: a 4xx is the caller's doing).
 *
 * <p><b>Spans are kept by call id.</b> The router tells of attempts by call id, on whatever
 * thread the request runs; the open spans of a call live in a map from its start to its end,
 * which {@link #requestEnded} always comes to (the request path ends every call once). Spans
 * are ended with the time of the event and exported in batches off the request path.
 */
public final class GatewayTracing implements RouterEvents, AutoCloseable {
    static final AttributeKey<String> MODEL_GROUP = AttributeKey.stringKey("sluice.model_group");
    static final AttributeKey<String> DEPLOYMENT = AttributeKey.stringKey("sluice.deployment");
    static final AttributeKey<Long> ATTEMPT = AttributeKey.longKey("sluice.attempt");
    static final AttributeKey<String> CALL_ID = AttributeKey.stringKey("sluice.call_id");
    static final AttributeKey<String> FAILURE_CLASS = AttributeKey.stringKey("sluice.failure_class");
    static final AttributeKey<String> TO_GROUP = AttributeKey.stringKey("sluice.fallback_group");
    static final AttributeKey<String> REASON = AttributeKey.stringKey("sluice.reason");
    static final AttributeKey<Long> STATUS = AttributeKey.longKey("http.response.status_code");
    static final AttributeKey<String> METHOD = AttributeKey.stringKey("http.request.method");
    static final AttributeKey<String> ROUTE = AttributeKey.stringKey("http.route");
    static final AttributeKey<String> EXCEPTION_TYPE = AttributeKey.stringKey("exception.type");
    static final AttributeKey<String> EXCEPTION_MESSAGE = AttributeKey.stringKey("exception.message");

    /** The spans of one call still open. */
    private static final class CallSpans {
        final Span request;
        volatile Span attempt;
        volatile String group;

        CallSpans(Span request) {
            this.request = request;
        }
    }

    /** Reads the trace-context headers of an arriving request. */
    private static final TextMapGetter<Function<String, String>> REQUEST_HEADERS = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Function<String, String> header) {
            return W3CTraceContextPropagator.getInstance().fields();
        }

        @Override
        public String get(Function<String, String> header, String name) {
            return header == null ? null : header.apply(name);
        }
    };

    private final SdkTracerProvider provider;
    private final Tracer tracer;
    private final ConcurrentMap<String, CallSpans> open = new ConcurrentHashMap<>();

    public GatewayTracing(SdkTracerProvider provider) {
        this.provider = provider;
        this.tracer = provider.get("dev.sluice");
    }

    /**
     * A model call arrived at {@code path}. When its headers carry a W3C {@code traceparent}
     * (and {@code tracestate}), its span joins the caller's trace, under the caller's span,
     * and follows the caller's sampling decision; otherwise it starts a trace of its own.
     *
     * @param header the request's header of a name, null when it has none
     */
    public void requestStarted(String callId, String path, Function<String, String> header) {
        Context caller = W3CTraceContextPropagator.getInstance().extract(Context.root(), header, REQUEST_HEADERS);
        Span span = tracer.spanBuilder("POST " + path)
                .setSpanKind(SpanKind.SERVER)
                .setParent(caller)
                .setAttribute(METHOD, "POST")
                .setAttribute(ROUTE, path)
                .setAttribute(CALL_ID, callId)
                .startSpan();
        // A caller may send its own call id, even one in use by another open call: that call keeps
        // its spans, and this one is not traced rather than mixed into it.
        if (open.putIfAbsent(callId, new CallSpans(span)) != null) {
            span.setAttribute(AttributeKey.booleanKey("sluice.call_id_in_use"), true);
            span.end();
        }
    }

    /** The call's answer ended, or its caller left ({@code 499}). */
    public void requestEnded(String callId, int status) {
        CallSpans spans = open.remove(callId);
        if (spans == null) {
            return;
        }
        Span attempt = spans.attempt;
        if (attempt != null) {
            attempt.end(); // a stream's attempt: over when its call is
        }
        spans.request.setAttribute(STATUS, (long) status);
        if (status >= 500) {
            spans.request.setStatus(StatusCode.ERROR, "answered " + status);
        }
        spans.request.end();
    }

    /**
     * Adds {@code attributes} to the span of a call still open (the {@code otel} logging
     * callback's GenAI attributes); a call already ended, or not traced, is left alone.
     */
    public void describe(String callId, Attributes attributes) {
        CallSpans spans = open.get(callId);
        if (spans != null) {
            spans.request.setAllAttributes(attributes);
        }
    }

    @Override
    public void attempt(String callId, String group, String deploymentId, int attempt) {
        CallSpans spans = open.get(callId);
        if (spans == null) {
            return;
        }
        spans.attempt = tracer.spanBuilder("upstream " + deploymentId)
                .setSpanKind(SpanKind.CLIENT)
                .setParent(Context.root().with(spans.request))
                .setAttribute(MODEL_GROUP, group)
                .setAttribute(DEPLOYMENT, deploymentId)
                .setAttribute(ATTEMPT, (long) attempt)
                .startSpan();
        if (attempt == 0 && spans.group == null) {
            spans.group = group; // the group asked for; fallbacks are events
            spans.request.setAttribute(MODEL_GROUP, group);
        }
    }

    /**
     * The W3C trace-context headers ({@code traceparent}, and {@code tracestate} when the
     * caller sent one) that make the call's open attempt the parent of what the upstream
     * records, for the attempt's request; empty when the call has no attempt open.
     */
    public Map<String, String> upstreamHeaders(String callId) {
        CallSpans spans = open.get(callId);
        Span attempt = spans == null ? null : spans.attempt;
        if (attempt == null) {
            return Map.of();
        }
        Map<String, String> headers = new LinkedHashMap<>(4);
        W3CTraceContextPropagator.getInstance().inject(Context.root().with(attempt), headers, Map::put);
        return headers;
    }

    @Override
    public void attemptEnded(String callId, String group, String deploymentId, Optional<Failure> failure, long nanos) {
        CallSpans spans = open.get(callId);
        Span span = spans == null ? null : spans.attempt;
        if (span == null) {
            return;
        }
        failure.ifPresentOrElse(f -> {
            if (f.status() > 0) {
                span.setAttribute(STATUS, (long) f.status());
            }
            span.setAttribute(FAILURE_CLASS, f.kind().wireName());
            span.addEvent("exception", Attributes.of(EXCEPTION_TYPE, f.kind().wireName(), EXCEPTION_MESSAGE, f.cause()));
            span.setStatus(StatusCode.ERROR, f.kind().wireName() + ": " + f.cause());
            span.end();
            spans.attempt = null;
        }, () -> {
            // The answer is being relayed: its attempt's span ends with the call (a stream's last event).
            span.setAttribute(FAILURE_CLASS, "none");
        });
    }

    @Override
    public void streamCut(String callId, String group, String deploymentId, String cause) {
        CallSpans spans = open.get(callId);
        Span span = spans == null ? null : spans.attempt;
        if (span != null) {
            span.setAttribute(FAILURE_CLASS, FailureClass.TRANSPORT.wireName());
            span.addEvent("exception", Attributes.of(EXCEPTION_TYPE, "stream_interrupted", EXCEPTION_MESSAGE, cause));
            span.setStatus(StatusCode.ERROR, "stream_interrupted: " + cause);
        }
        event(callId, "stream_interrupted", Attributes.of(DEPLOYMENT, deploymentId));
    }

    @Override
    public void retry(String callId, String group, String deploymentId, Failure failure, long delayMillis) {
        event(callId, "retry", Attributes.of(DEPLOYMENT, deploymentId, FAILURE_CLASS, failure.kind().wireName()));
    }

    @Override
    public void failover(String callId, String group, String fromDeploymentId, Failure failure) {
        event(callId, "failover", Attributes.of(DEPLOYMENT, fromDeploymentId, FAILURE_CLASS, failure.kind().wireName()));
    }

    @Override
    public void fallback(String callId, String fromGroup, String toGroup, Failure failure) {
        event(callId, "fallback", Attributes.of(MODEL_GROUP, fromGroup, TO_GROUP, toGroup, FAILURE_CLASS, failure.kind().wireName()));
    }

    @Override
    public void skip(String callId, String fromGroup, String toGroup, SkipReason reason) {
        event(callId, "fallback_skipped", Attributes.of(MODEL_GROUP, fromGroup, TO_GROUP, toGroup, REASON, reason.wireName()));
    }

    private void event(String callId, String name, Attributes attributes) {
        CallSpans spans = open.get(callId);
        if (spans != null) {
            spans.request.addEvent(name, attributes);
        }
    }

    /** Ends what is still open and sends what is waiting, within a few seconds. */
    @Override
    public void close() {
        open.values().forEach(spans -> spans.request.end());
        open.clear();
        provider.shutdown().join(5, TimeUnit.SECONDS);
    }
}
