package dev.sluice.call;

import dev.sluice.accounts.AccessControl;
import dev.sluice.call.cache.ResponseCache;
import dev.sluice.call.guardrail.Guardrails;
import dev.sluice.http.BodyLimits;
import dev.sluice.ops.overload.Overload;
import dev.sluice.router.ModelRegistry;
import dev.sluice.router.Router;
import dev.sluice.time.TimeSource;
import dev.sluice.vendors.Providers;
import java.util.Optional;

/**
 * What every model call shares, whichever event loop it runs on: all of it thread-safe. The
 * pipeline hands each of its parts only the services that part uses.
 *
 * @param models          the model groups served now
 * @param providers       the provider adapters, by a deployment's provider prefix
 * @param router          picks deployments, retries, fails over, benches and falls back
 * @param guardrails      the configured guardrails
 * @param access          who may call, and within what budgets and limits
 * @param time            wall-clock time (for Retry-After dates and records) and the monotonic
 *                        time deadlines and durations are measured with
 * @param bodies          what a call's body may be: its size, the budget all bodies share, its JSON, its pace
 * @param instance        this gateway's own mark on the calls it sends upstream ({@link dev.sluice.http.Hops})
 * @param cache           the response cache; empty when {@code litellm_settings.cache} is off
 * @param overload        the calls served at once, and whether the heap can take more
 * @param observers       where what calls did is told: metrics, traces, callbacks, recent calls, refusals
 */
public record CallServices(ModelRegistry models, Providers providers, Router router, Guardrails guardrails,
        AccessControl access, TimeSource time, BodyLimits bodies, String instance, Optional<ResponseCache> cache,
        Overload overload, CallObservers observers) {}
