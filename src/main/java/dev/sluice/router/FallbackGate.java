package dev.sluice.router;

import java.util.Optional;

/**
 * The caller's say over its fallbacks: asked before each fallback group is tried, never for
 * the group the caller asked for (that one was admitted before routing began). A refusal
 * skips the group; the caller gets the primary's error with the reason.
 */
@FunctionalInterface
public interface FallbackGate {

    /** Lets every fallback through: a caller with no keys, limits or budgets. */
    FallbackGate OPEN = (target, group) -> Optional.empty();

    /**
     * Why the caller may not fall back to {@code target}, the name as written, which
     * {@code group} serves ({@link SkipReason#NO_ACCESS}, {@link SkipReason#OVER_BUDGET}); empty when it may.
     */
    Optional<SkipReason> refusal(String target, ModelGroup group);
}
