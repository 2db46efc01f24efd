package dev.sluice.call;

import dev.sluice.call.guardrail.Guardrails;
import dev.sluice.ops.tracing.GatewayTracing;
import dev.sluice.router.RouterEvents;
import dev.sluice.router.strategy.SignalRecorder;
import dev.sluice.vendors.Providers;
import java.time.Clock;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * What an attempt at a deployment ({@link DeploymentCall}) uses beyond the call itself,
 * shared by a pipeline's calls.
 *
 * @param providers  the provider adapters, by a deployment's provider prefix
 * @param guardrails the configured guardrails, on the prompt and on the answer
 * @param signals    what the routing strategies read of each attempt (calls open, latency, tokens)
 * @param events     where a stream cut after its start is told, beside what the router tells
 * @param tracing    the attempt's trace context for the upstream; empty when no OTLP endpoint is configured
 * @param instance   this gateway's own mark on the calls it sends upstream ({@link dev.sluice.http.Hops})
 * @param clock      wall-clock time, for Retry-After dates
 * @param nanoTime   the monotonic time durations are measured with
 * @param answers    writes a stream's head when it commits
 */
record AttemptServices(Providers providers, Guardrails guardrails, SignalRecorder signals, RouterEvents events,
        Optional<GatewayTracing> tracing, String instance, Clock clock, LongSupplier nanoTime, AnswerWriter answers) {}
