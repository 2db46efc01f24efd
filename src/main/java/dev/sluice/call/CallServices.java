package dev.sluice.call;

import dev.sluice.http.BodyLimits;
import dev.sluice.access.AccessControl;
import dev.sluice.cache.ResponseCache;
import dev.sluice.callbacks.Callbacks;
import dev.sluice.guardrail.Guardrails;
import dev.sluice.metrics.GatewayMetrics;
import dev.sluice.overload.Overload;
import dev.sluice.provider.Providers;
import dev.sluice.router.ModelRegistry;
import dev.sluice.router.Router;
import dev.sluice.tracing.GatewayTracing;
import java.time.Clock;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * What every model call shares, whichever event loop it runs on: all of it thread-safe.
 *
 * @param models          the model groups served now
 * @param providers       the provider adapters, by a deployment's provider prefix
 * @param router          picks deployments, retries, fails over, benches and falls back
 * @param guardrails      the configured guardrails
 * @param access          who may call, and within what budgets and limits
 * @param metrics         what {@code /metrics} shows
 * @param tracing         spans for each request and attempt; empty when no OTLP endpoint is configured
 * @param clock           wall-clock time, for Retry-After dates
 * @param nanoTime        the monotonic time deadlines and durations are measured with
 * @param bodies          what a call's body may be: its size, the budget all bodies share, its JSON, its pace
 * @param instance        this gateway's own mark on the calls it sends upstream ({@link dev.sluice.http.Hops})
 * @param cache           the response cache; empty when {@code litellm_settings.cache} is off
 * @param callbacks       the logging callbacks each finished call is offered to ({@link CallRecording})
 * @param recentCalls     this replica's last calls, for {@code GET /calls/recent}
 * @param overload        the calls served at once, and whether the heap can take more
 * @param refusals        the log of calls refused before routing
 */
public record CallServices(ModelRegistry models, Providers providers, Router router, Guardrails guardrails,
        AccessControl access, GatewayMetrics metrics, Optional<GatewayTracing> tracing, Clock clock, LongSupplier nanoTime,
        BodyLimits bodies, String instance, Optional<ResponseCache> cache,
        Callbacks callbacks, RecentCalls recentCalls, Overload overload, RefusalLog refusals) {}
