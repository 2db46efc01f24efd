package dev.sluice.router.strategy;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;

/**
 * The {@code routing_strategy_args} that tune latency-based routing, with LiteLLM's names
 * and defaults. They are read whatever {@code routing_strategy} is configured, since a
 * request may name {@code latency-based-routing} for itself.
 *
 * @param ttl         {@code ttl}: how long a latency sample counts (seconds in the config;
 *                    default 3600, as in LiteLLM)
 * @param buffer      {@code lowest_latency_buffer}: deployments within
 *                    {@code (1 + buffer) × lowest} average latency share the traffic at
 *                    random (default 0: only the lowest)
 * @param maxSamples  {@code max_latency_list_size}: samples kept per deployment (default 10)
 */
public record LatencyArgs(Duration ttl, double buffer, int maxSamples) {
    public static final LatencyArgs DEFAULTS = new LatencyArgs(Duration.ofHours(1), 0, 10);

    /** The longest {@code ttl} accepted: a year, far beyond any useful sample age. */
    static final long MAX_TTL_SECONDS = 365L * 24 * 3600;
    /** The most samples kept per deployment; each sample costs a copy per new one. */
    static final int MAX_SAMPLES = 1000;

    public LatencyArgs {
        if (ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException("ttl: " + ttl + " (expected: > 0)");
        }
        if (!(buffer >= 0) || Double.isInfinite(buffer)) {
            throw new IllegalArgumentException("buffer: " + buffer + " (expected: a finite number >= 0)");
        }
        if (maxSamples < 1) {
            throw new IllegalArgumentException("maxSamples: " + maxSamples + " (expected: >= 1)");
        }
    }

    /**
     * Reads the args as written in {@code router_settings.routing_strategy_args}; keys it
     * does not know are left to whoever reads them. A number may be written as a number or
     * as its text (as {@code os.environ/NAME} gives it).
     *
     * @throws IllegalArgumentException naming the arg, the value and the rule, e.g.
     *         {@code routing_strategy_args.ttl: -5 (expected: a number of seconds, > 0 and at most 31536000)}
     */
    public static LatencyArgs from(Map<String, Object> args) {
        Duration ttl = DEFAULTS.ttl();
        double buffer = DEFAULTS.buffer();
        int maxSamples = DEFAULTS.maxSamples();
        if (args.containsKey("ttl")) {
            String rule = "a number of seconds, > 0 and at most " + MAX_TTL_SECONDS;
            BigDecimal seconds = number(args, "ttl", rule);
            if (seconds.signum() <= 0 || seconds.compareTo(BigDecimal.valueOf(MAX_TTL_SECONDS)) > 0) {
                throw invalid("ttl", args.get("ttl"), rule);
            }
            ttl = Duration.ofNanos(seconds.movePointRight(9).longValue());
            if (ttl.isZero()) {
                throw invalid("ttl", args.get("ttl"), rule);
            }
        }
        if (args.containsKey("lowest_latency_buffer")) {
            String rule = "a fraction >= 0, e.g. 0.5 for within 50% of the lowest";
            BigDecimal fraction = number(args, "lowest_latency_buffer", rule);
            buffer = fraction.doubleValue();
            if (fraction.signum() < 0 || Double.isInfinite(buffer)) {
                throw invalid("lowest_latency_buffer", args.get("lowest_latency_buffer"), rule);
            }
        }
        if (args.containsKey("max_latency_list_size")) {
            String rule = "a whole number from 1 to " + MAX_SAMPLES;
            BigDecimal size = number(args, "max_latency_list_size", rule);
            if (size.stripTrailingZeros().scale() > 0
                    || size.compareTo(BigDecimal.ONE) < 0
                    || size.compareTo(BigDecimal.valueOf(MAX_SAMPLES)) > 0) {
                throw invalid("max_latency_list_size", args.get("max_latency_list_size"), rule);
            }
            maxSamples = size.intValueExact();
        }
        return new LatencyArgs(ttl, buffer, maxSamples);
    }

    private static BigDecimal number(Map<String, Object> args, String key, String rule) {
        Object value = args.get(key);
        try {
            if (value instanceof Double || value instanceof Float) {
                double d = ((Number) value).doubleValue();
                if (!Double.isFinite(d)) {
                    throw invalid(key, value, rule);
                }
                return BigDecimal.valueOf(d);
            }
            if (value instanceof Number || value instanceof String) {
                return new BigDecimal(value.toString().strip());
            }
        } catch (NumberFormatException e) {
            // Not a number: reported below with the rule.
        }
        throw invalid(key, value, rule);
    }

    private static IllegalArgumentException invalid(String key, Object value, String rule) {
        String shown = value instanceof String ? "'" + value + "'" : String.valueOf(value);
        return new IllegalArgumentException(
                "routing_strategy_args." + key + ": " + shown + " (expected: " + rule + ")");
    }
}
