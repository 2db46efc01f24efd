package dev.sluice.config;

/**
 * Whether a fallback group is held to the caller's limits, from {@code general_settings}.
 *
 * @param enforceFallbackModelAccess {@code enforce_fallback_model_access} (default true): a fallback group the
 *                                   caller's key or team may not use is skipped
 * @param enforceFallbackBudget      {@code enforce_fallback_budget} (default true): a fallback group the caller's
 *                                   budgets do not cover is skipped
 */
public record FallbackChecks(boolean enforceFallbackModelAccess, boolean enforceFallbackBudget) {}
