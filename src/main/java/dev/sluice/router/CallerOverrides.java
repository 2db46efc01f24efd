package dev.sluice.router;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What the caller asked of the router for this one request, from the body
 * ({@code num_retries}, {@code fallbacks}, ..., or the same inside
 * {@code router_settings_override}), the {@code x-litellm-*} headers and the caller's team
 * {@code router_settings}, already checked and capped by the configured maxima. Built with
 * {@link #builder()}; every part left unset asks nothing of the router.
 */
public final class CallerOverrides {
    public static final CallerOverrides NONE = builder().build();

    private final OptionalInt numRetries;
    private final Optional<Duration> timeout;
    private final Optional<List<String>> fallbacks;
    private final Map<String, List<String>> contextWindowFallbacks;
    private final Map<String, List<String>> contentPolicyFallbacks;
    private final Map<String, Map<String, Integer>> modelGroupRetryPolicy;
    private final boolean disableFallbacks;
    private final Optional<String> routingStrategy;
    private final Map<String, Double> deploymentWeights;

    private CallerOverrides(Builder builder) {
        this.numRetries = builder.numRetries;
        this.timeout = builder.timeout;
        this.fallbacks = builder.fallbacks;
        this.contextWindowFallbacks = Map.copyOf(builder.contextWindowFallbacks);
        this.contentPolicyFallbacks = Map.copyOf(builder.contentPolicyFallbacks);
        this.modelGroupRetryPolicy = Map.copyOf(builder.modelGroupRetryPolicy);
        this.disableFallbacks = builder.disableFallbacks;
        this.routingStrategy = builder.routingStrategy;
        this.deploymentWeights = Map.copyOf(builder.deploymentWeights);
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        return new Builder().numRetries(numRetries).timeout(timeout).fallbacks(fallbacks)
                .contextWindowFallbacks(contextWindowFallbacks).contentPolicyFallbacks(contentPolicyFallbacks)
                .modelGroupRetryPolicy(modelGroupRetryPolicy).disableFallbacks(disableFallbacks)
                .routingStrategy(routingStrategy).deploymentWeights(deploymentWeights);
    }

    public OptionalInt numRetries() {
        return numRetries;
    }

    public Optional<Duration> timeout() {
        return timeout;
    }

    /** Replaces the configured {@code fallbacks} of the requested group. */
    public Optional<List<String>> fallbacks() {
        return fallbacks;
    }

    /** Group to fallbacks, on top of the configured ones. */
    public Map<String, List<String>> contextWindowFallbacks() {
        return contextWindowFallbacks;
    }

    /** Group to fallbacks, on top of the configured ones. */
    public Map<String, List<String>> contentPolicyFallbacks() {
        return contentPolicyFallbacks;
    }

    /** Group to retry policy, on top of the configured ones. */
    public Map<String, Map<String, Integer>> modelGroupRetryPolicy() {
        return modelGroupRetryPolicy;
    }

    public boolean disableFallbacks() {
        return disableFallbacks;
    }

    /** A strategy for this request in place of the configured one. */
    public Optional<String> routingStrategy() {
        return routingStrategy;
    }

    /**
     * Deployment id to weight: in a group where any deployment is listed, the listed ones
     * take the traffic by these weights and the others are backups.
     */
    public Map<String, Double> deploymentWeights() {
        return deploymentWeights;
    }

    /**
     * These overrides over {@code base} (a team's): each value set here wins, the per-group
     * maps are merged with this one's entries winning, and fallbacks are disabled if either
     * disables them.
     */
    public CallerOverrides over(CallerOverrides base) {
        return builder()
                .numRetries(numRetries.isPresent() ? numRetries : base.numRetries)
                .timeout(timeout.or(() -> base.timeout))
                .fallbacks(fallbacks.or(() -> base.fallbacks))
                .contextWindowFallbacks(merged(base.contextWindowFallbacks, contextWindowFallbacks))
                .contentPolicyFallbacks(merged(base.contentPolicyFallbacks, contentPolicyFallbacks))
                .modelGroupRetryPolicy(merged(base.modelGroupRetryPolicy, modelGroupRetryPolicy))
                .disableFallbacks(disableFallbacks || base.disableFallbacks)
                .routingStrategy(routingStrategy.or(() -> base.routingStrategy))
                .deploymentWeights(deploymentWeights.isEmpty() ? base.deploymentWeights : deploymentWeights)
                .build();
    }

    private static <V> Map<String, V> merged(Map<String, V> base, Map<String, V> over) {
        if (base.isEmpty()) {
            return over;
        }
        if (over.isEmpty()) {
            return base;
        }
        Map<String, V> merged = new LinkedHashMap<>(base);
        merged.putAll(over);
        return merged;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof CallerOverrides that && numRetries.equals(that.numRetries) && timeout.equals(that.timeout)
                && fallbacks.equals(that.fallbacks) && contextWindowFallbacks.equals(that.contextWindowFallbacks)
                && contentPolicyFallbacks.equals(that.contentPolicyFallbacks)
                && modelGroupRetryPolicy.equals(that.modelGroupRetryPolicy) && disableFallbacks == that.disableFallbacks
                && routingStrategy.equals(that.routingStrategy) && deploymentWeights.equals(that.deploymentWeights);
    }

    @Override
    public int hashCode() {
        return Objects.hash(numRetries, timeout, fallbacks, contextWindowFallbacks, contentPolicyFallbacks, modelGroupRetryPolicy,
                disableFallbacks, routingStrategy, deploymentWeights);
    }

    @Override
    public String toString() {
        return "CallerOverrides[numRetries=" + numRetries + ", timeout=" + timeout + ", fallbacks=" + fallbacks
                + ", contextWindowFallbacks=" + contextWindowFallbacks + ", contentPolicyFallbacks=" + contentPolicyFallbacks
                + ", modelGroupRetryPolicy=" + modelGroupRetryPolicy + ", disableFallbacks=" + disableFallbacks
                + ", routingStrategy=" + routingStrategy + ", deploymentWeights=" + deploymentWeights + "]";
    }

    /** Sets the parts of a {@link CallerOverrides}; each part left alone asks nothing. */
    public static final class Builder {
        private OptionalInt numRetries = OptionalInt.empty();
        private Optional<Duration> timeout = Optional.empty();
        private Optional<List<String>> fallbacks = Optional.empty();
        private Map<String, List<String>> contextWindowFallbacks = Map.of();
        private Map<String, List<String>> contentPolicyFallbacks = Map.of();
        private Map<String, Map<String, Integer>> modelGroupRetryPolicy = Map.of();
        private boolean disableFallbacks;
        private Optional<String> routingStrategy = Optional.empty();
        private Map<String, Double> deploymentWeights = Map.of();

        private Builder() {}

        public Builder numRetries(OptionalInt numRetries) {
            this.numRetries = Objects.requireNonNull(numRetries, "numRetries");
            return this;
        }

        public Builder timeout(Optional<Duration> timeout) {
            this.timeout = Objects.requireNonNull(timeout, "timeout");
            return this;
        }

        public Builder fallbacks(Optional<List<String>> fallbacks) {
            this.fallbacks = Objects.requireNonNull(fallbacks, "fallbacks");
            return this;
        }

        public Builder contextWindowFallbacks(Map<String, List<String>> byGroup) {
            this.contextWindowFallbacks = Objects.requireNonNull(byGroup, "contextWindowFallbacks");
            return this;
        }

        public Builder contentPolicyFallbacks(Map<String, List<String>> byGroup) {
            this.contentPolicyFallbacks = Objects.requireNonNull(byGroup, "contentPolicyFallbacks");
            return this;
        }

        public Builder modelGroupRetryPolicy(Map<String, Map<String, Integer>> byGroup) {
            this.modelGroupRetryPolicy = Objects.requireNonNull(byGroup, "modelGroupRetryPolicy");
            return this;
        }

        public Builder disableFallbacks(boolean disableFallbacks) {
            this.disableFallbacks = disableFallbacks;
            return this;
        }

        public Builder routingStrategy(Optional<String> routingStrategy) {
            this.routingStrategy = Objects.requireNonNull(routingStrategy, "routingStrategy");
            return this;
        }

        public Builder deploymentWeights(Map<String, Double> weights) {
            this.deploymentWeights = Objects.requireNonNull(weights, "deploymentWeights");
            return this;
        }

        public CallerOverrides build() {
            return new CallerOverrides(this);
        }
    }
}
