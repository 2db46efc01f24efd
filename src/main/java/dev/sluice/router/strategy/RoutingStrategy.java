package dev.sluice.router.strategy;

import dev.sluice.config.Deployment;
import java.util.List;

/**
 * How one deployment is chosen among the candidates the attempt loop offers (healthy, not
 * yet tried by this request, already narrowed by the pre-call checks). A strategy reads
 * live signals (in-flight counts, usage windows, latency samples) from stores shared by
 * every event loop, so a strategy named per request routes exactly as well as the
 * configured one. Implementations are thread-safe and never block.
 */
public interface RoutingStrategy {

    /** The name in {@code routing_strategy}, e.g. {@code least-busy}. */
    String name();

    /**
     * Picks one of {@code candidates} (never empty), or says why none of them may take the
     * request now (for example, every one is over its {@code tpm}).
     */
    Pick pick(List<Deployment> candidates, RequestFacts request);

    /**
     * Whether this strategy keeps deployments within their {@code rpm} and {@code tpm}: then
     * an attempt claims its place in the deployment's window before it is sent, and goes to
     * a sibling when another request took the last one. Otherwise ({@code simple-shuffle},
     * {@code least-busy}) {@code rpm} and {@code tpm} are weights, not limits, as in LiteLLM.
     */
    default boolean keepsWithinLimits() {
        return false;
    }
}
