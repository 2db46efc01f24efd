package dev.sluice.router;

import java.util.Optional;

/**
 * The caller's say over its fallbacks: asked before each fallback group is tried, never for
 * the group the caller asked for (that one was admitted before routing began). A refusal
 * skips the group; the caller gets the primary's error with the reason.
 */
@FunctionalInterface
public interface FallbackGate {

    /** A skip reason: the caller's key or team may not use the group. */
    String NO_ACCESS = "no_access";
    /** A skip reason: a budget of the caller does not cover the estimated call. */
    String OVER_BUDGET = "over_budget";

    /** Lets every fallback through: a caller with no keys, limits or budgets. */
    FallbackGate OPEN = target -> Optional.empty();

    /** Why the caller may not fall back to {@code target} ({@link #NO_ACCESS}, {@link #OVER_BUDGET}); empty when it may. */
    Optional<String> refusal(ModelGroup target);
}
