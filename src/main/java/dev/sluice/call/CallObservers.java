package dev.sluice.call;

import dev.sluice.ops.callbacks.Callbacks;
import dev.sluice.ops.metrics.GatewayMetrics;
import dev.sluice.ops.tracing.GatewayTracing;
import java.util.Optional;

/**
 * Where what model calls did is told, beyond the caller: shared by every call, all of it
 * thread-safe. Each call's listeners ({@link CallListener}) report to these.
 *
 * @param metrics     what {@code /metrics} shows
 * @param tracing     spans for each request and attempt; empty when no OTLP endpoint is configured
 * @param callbacks   the logging callbacks each finished call is offered to ({@link CallRecording})
 * @param recentCalls this replica's last calls, for {@code GET /calls/recent}
 * @param refusals    the log of calls refused before routing
 * @param extra       makes one more listener for each call: {@link CallListenerFactory#NONE} but in
 *                    tests that watch a gateway's calls
 */
public record CallObservers(GatewayMetrics metrics, Optional<GatewayTracing> tracing, Callbacks callbacks,
        RecentCalls recentCalls, RefusalLog refusals, CallListenerFactory extra) {}
