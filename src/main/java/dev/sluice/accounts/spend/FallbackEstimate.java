package dev.sluice.accounts.spend;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.config.Deployment;
import java.util.List;
import java.util.Objects;

/**
 * The documented estimate of what a fallback call will cost, for the budget pre-check made
 * before a fallback target is tried:
 *
 * <pre>
 *   prompt tokens × input price  +  completion tokens × output price
 * </pre>
 *
 * where the completion tokens are the body's {@code max_completion_tokens}, else its
 * {@code max_tokens}, else what calls of the group are expected to write (the running
 * average of {@link OutputTokenAverages}, {@value #DEFAULT_COMPLETION_TOKENS} before there is
 * one), and the prices are those of the cheapest deployment of the target group for this call.
 *
 * <p><b>Why the cheapest.</b> The router has not picked a deployment when the check runs,
 * and may pick any of them. The cheapest one's cost is the least the fallback can cost, so
 * a caller is never refused a fallback it could afford: a key whose remaining budget covers
 * the estimate always gets it. If the router then picks a dearer deployment, the call's real
 * cost is counted when it ends and the next request's checks see it. A deployment with no
 * known price counts as costing 0, as its calls are counted at 0 ({@link CallCost}); a group
 * holding one is therefore free for this check, and the estimate says it is unpriced.
 *
 * <p><b>Why the body's maximum.</b> It is the most the caller allowed the answer to cost;
 * {@code max_completion_tokens} comes first as OpenAI's current name for it. Without either,
 * what the group's answers really run to stands for the answer rather than the model's largest
 * possible one, which would refuse nearly every small budget (the misjudged pre-check of
 * seed 003).
 *
 * <p>Stateless and thread-safe.
 */
public final class FallbackEstimate {

    /** The completion tokens assumed when the body sets no maximum and nothing better is known. */
    public static final long DEFAULT_COMPLETION_TOKENS = OutputTokenAverages.DEFAULT_OUTPUT_TOKENS;

    /**
     * @param dollars          the estimate, in US dollars
     * @param completionTokens as read from the body, or the tokens expected without one
     * @param basis            the deployment whose prices it uses: the cheapest for this call,
     *                         the first in the list among equals
     * @param priced           whether {@code basis} has known prices
     */
    public record Estimate(double dollars, long promptTokens, long completionTokens, Deployment basis, boolean priced) {
        /** Whether the fallback costs nothing, and so passes every budget. */
        public boolean isFree() {
            return dollars == 0;
        }
    }

    private final CallCost cost;

    public FallbackEstimate(CallCost cost) {
        this.cost = Objects.requireNonNull(cost, "cost");
    }

    /**
     * The estimate for sending {@code body}, whose prompt counts {@code promptTokens}, to one
     * of {@code deployments}: those of the target group the router could send it to.
     */
    public Estimate of(List<Deployment> deployments, long promptTokens, JsonNode body) {
        return of(deployments, promptTokens, body, DEFAULT_COMPLETION_TOKENS);
    }

    /**
     * {@link #of(List, long, JsonNode)}, a body that sets no maximum taken to write
     * {@code expectedTokens} (what calls of the group write, {@link OutputTokenAverages#expected}).
     */
    public Estimate of(List<Deployment> deployments, long promptTokens, JsonNode body, long expectedTokens) {
        if (deployments.isEmpty()) {
            throw new IllegalArgumentException("deployments: [] (expected: the target group's deployments, at least one)");
        }
        long completionTokens = completionTokens(body, expectedTokens);
        Estimate cheapest = null;
        for (Deployment deployment : deployments) {
            CallCost.Cost call = cost.of(deployment, promptTokens, completionTokens);
            if (cheapest == null || call.dollars() < cheapest.dollars()) {
                cheapest = new Estimate(call.dollars(), promptTokens, completionTokens, deployment, call.priced());
            }
        }
        return cheapest;
    }

    /**
     * The completion tokens a body allows: {@code max_completion_tokens}, else
     * {@code max_tokens}, each only when it is a whole number >= 0; else
     * {@value #DEFAULT_COMPLETION_TOKENS}.
     */
    public static long completionTokens(JsonNode body) {
        return completionTokens(body, DEFAULT_COMPLETION_TOKENS);
    }

    /** The completion tokens a body allows, {@code otherwise} when it sets no maximum. */
    static long completionTokens(JsonNode body, long otherwise) {
        for (String field : new String[] {"max_completion_tokens", "max_tokens"}) {
            JsonNode value = body.path(field);
            if (value.isNumber() && value.canConvertToExactIntegral() && value.canConvertToLong() && value.asLong() >= 0) {
                return value.asLong();
            }
        }
        return otherwise;
    }
}
