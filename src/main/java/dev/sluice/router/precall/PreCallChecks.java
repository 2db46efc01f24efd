package dev.sluice.router.precall;

import dev.sluice.catalog.CachePrefixes.CacheKeys;
import dev.sluice.catalog.ModelCatalog;
import dev.sluice.config.Deployment;
import dev.sluice.config.RouterSettings;
import dev.sluice.router.precall.Checked.Dropped;
import dev.sluice.router.signals.CachePins;
import dev.sluice.router.strategy.RequestFacts;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Narrows a group's candidates (the healthy deployments this request has not tried, among
 * those the {@link TagFilter} left it) before a routing strategy picks one. The checks run in this order, each on what the one before
 * it kept:
 *
 * <ol>
 *   <li><b>context window</b> ({@code enable_pre_call_checks: true}): a deployment whose
 *       window ({@link ModelCatalog#maxInputTokens}) is smaller than the prompt is dropped;
 *       one whose window is unknown is kept, as the provider will judge. When every candidate
 *       is dropped the result says why ({@link Checked#failure()}: a context_window failure,
 *       which leads to {@code context_window_fallbacks});
 *   <li><b>order</b> (always, as LiteLLM's router does): when any candidate sets
 *       {@code litellm_params.order}, only those of the lowest order are kept; a deployment
 *       without {@code order} is then dropped too. Once they are benched or tried, the next
 *       order's deployments are the candidates;
 *   <li><b>prompt caching</b> ({@code optional_pre_call_checks: [prompt_caching]}): when the
 *       request's cacheable prefix ({@link RequestFacts#cachePrefix()}) is pinned to one of
 *       the kept candidates, only that one is kept. A pin never overrides the checks before
 *       it: a conversation pinned to a deployment of order 2 while order 1 was down goes back
 *       to order 1 when order 1 is a candidate again.
 * </ol>
 *
 * Only the context-window check can drop every candidate. Pins are made by
 * {@link #served} once a deployment has answered, and lapse with the provider's cache.
 * Thread-safe; times come from the injected clock.
 */
public final class PreCallChecks {
    public static final String CONTEXT_WINDOW = "context_window";
    public static final String ORDER = "order";
    public static final String PROMPT_CACHING = "prompt_caching";

    private final boolean contextWindow;
    private final boolean promptCaching;
    private final ModelCatalog catalog;
    private final CachePins pins;
    private final Clock clock;

    public PreCallChecks(RouterSettings settings, ModelCatalog catalog, CachePins pins, Clock clock) {
        this.contextWindow = settings.preCallChecks().enablePreCallChecks();
        this.promptCaching = settings.preCallChecks().optionalPreCallChecks().contains(PROMPT_CACHING);
        this.catalog = catalog;
        this.pins = pins;
        this.clock = clock;
    }

    public Checked check(List<Deployment> candidates, RequestFacts request) {
        List<Dropped> dropped = new ArrayList<>();
        List<Deployment> kept = candidates;
        if (contextWindow) {
            kept = fitting(kept, request, dropped);
            if (kept.isEmpty() && !candidates.isEmpty()) {
                return new Checked(List.of(), dropped, Optional.of(noneFits(request, dropped)));
            }
        }
        kept = lowestOrder(kept, dropped);
        if (promptCaching && request.cachePrefix().isPresent()) {
            kept = pinned(kept, request.cachePrefix().get(), dropped);
        }
        return new Checked(kept, dropped, Optional.empty());
    }

    /** Pins the request's cacheable prefixes to the deployment that served it, when prompt caching is on. */
    public void served(Deployment deployment, CacheKeys keys) {
        if (!promptCaching || keys.pin().isEmpty()) {
            return;
        }
        Instant until = clock.instant().plus(keys.ttl());
        for (String key : keys.pin()) {
            pins.pin(key, deployment.id(), until);
        }
    }

    private List<Deployment> fitting(List<Deployment> candidates, RequestFacts request, List<Dropped> dropped) {
        List<Deployment> kept = new ArrayList<>(candidates.size());
        for (Deployment d : candidates) {
            OptionalInt window = catalog.maxInputTokens(d);
            if (window.isPresent() && window.getAsInt() < request.promptTokens()) {
                dropped.add(new Dropped(d, CONTEXT_WINDOW, "the prompt has " + request.promptTokens()
                        + " tokens and deployment '" + d.id() + "' takes at most " + window.getAsInt()));
            } else {
                kept.add(d);
            }
        }
        return kept;
    }

    private String noneFits(RequestFacts request, List<Dropped> dropped) {
        StringBuilder s = new StringBuilder("Sluice: a prompt of ").append(request.promptTokens())
                .append(" tokens is longer than the context window of every deployment of model group '")
                .append(request.group()).append("' left to try (");
        for (int i = 0; i < dropped.size(); i++) {
            Deployment d = dropped.get(i).deployment();
            s.append(i == 0 ? "" : ", ").append('\'').append(d.id()).append("' takes at most ")
                    .append(catalog.maxInputTokens(d).orElseThrow());
        }
        return s.append("); none was called.").toString();
    }

    private static List<Deployment> lowestOrder(List<Deployment> candidates, List<Dropped> dropped) {
        int lowest = Integer.MAX_VALUE;
        for (Deployment d : candidates) {
            OptionalInt order = d.params().order();
            if (order.isPresent() && order.getAsInt() < lowest) {
                lowest = order.getAsInt();
            }
        }
        if (lowest == Integer.MAX_VALUE) {
            return candidates;
        }
        List<Deployment> kept = new ArrayList<>(candidates.size());
        for (Deployment d : candidates) {
            OptionalInt order = d.params().order();
            if (order.isPresent() && order.getAsInt() == lowest) {
                kept.add(d);
            } else {
                dropped.add(new Dropped(d, ORDER, (order.isPresent() ? "order " + order.getAsInt() : "no order")
                        + "; deployments of order " + lowest + " are offered first"));
            }
        }
        return kept;
    }

    private List<Deployment> pinned(List<Deployment> candidates, String prefix, List<Dropped> dropped) {
        Optional<String> pinnedId = pins.pinned(prefix, clock.instant());
        if (pinnedId.isEmpty()) {
            return candidates;
        }
        Deployment holder = null;
        for (Deployment d : candidates) {
            if (d.id().equals(pinnedId.get())) {
                holder = d;
            }
        }
        if (holder == null) {
            return candidates; // the holder is benched, tried or out of the running: balance as usual
        }
        for (Deployment d : candidates) {
            if (d != holder) {
                dropped.add(new Dropped(d, PROMPT_CACHING,
                        "the conversation's cached prefix is held by deployment '" + holder.id() + "'"));
            }
        }
        return List.of(holder);
    }
}
