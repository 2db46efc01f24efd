package dev.sluice.ops.callbacks;

import dev.sluice.ops.tracing.GatewayTracing;

/**
 * The {@code otel} callback: a call's request span is given the GenAI attributes of its
 * record while it is still open. Nothing is queued: the span is exported with the rest of
 * the trace, in OpenTelemetry's own batches, off the request path.
 *
 * @param onSuccess whether served calls are described
 * @param onFailure whether failed calls are described
 */
record OtelCallback(GatewayTracing tracing, boolean onSuccess, boolean onFailure, boolean messageLogging) {

    /**
     * Describes the call's span as far as {@code record} tells. Called once routing has ended
     * (a failed call's span ends as its error is written, before its accounting does) and
     * again when the call is settled; a span already ended is left alone.
     */
    void describe(CallRecord record, boolean settled) {
        if (record.success() ? onSuccess : onFailure) {
            tracing.describe(record.callId(), GenAiAttributes.of(record, messageLogging, settled));
        }
    }
}
