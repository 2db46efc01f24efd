package dev.sluice.accounts.limits;

import java.util.OptionalLong;

/**
 * The rate limits of one scope; each is absent when not set. A limit of 0 is a real limit
 * that admits nothing.
 *
 * @param rpm                 {@code rpm_limit} (or {@code model_rpm_limit} for a model group)
 * @param tpm                 {@code tpm_limit} (or {@code model_tpm_limit})
 * @param maxParallelRequests {@code max_parallel_requests}
 */
public record Limits(OptionalLong rpm, OptionalLong tpm, OptionalLong maxParallelRequests) {

    /** No limits at all. */
    public static final Limits NONE = new Limits(OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty());

    public Limits {
        atLeastZero("rpm_limit", rpm);
        atLeastZero("tpm_limit", tpm);
        atLeastZero("max_parallel_requests", maxParallelRequests);
    }

    public Limits withRpm(long limit) {
        return new Limits(OptionalLong.of(limit), tpm, maxParallelRequests);
    }

    public Limits withTpm(long limit) {
        return new Limits(rpm, OptionalLong.of(limit), maxParallelRequests);
    }

    public Limits withMaxParallelRequests(long limit) {
        return new Limits(rpm, tpm, OptionalLong.of(limit));
    }

    /** The limit of one kind. */
    public OptionalLong of(LimitKind kind) {
        return switch (kind) {
            case REQUESTS -> rpm;
            case TOKENS -> tpm;
            case PARALLEL -> maxParallelRequests;
        };
    }

    /** Whether no limit is set, so nothing needs counting. */
    public boolean isEmpty() {
        return rpm.isEmpty() && tpm.isEmpty() && maxParallelRequests.isEmpty();
    }

    private static void atLeastZero(String field, OptionalLong limit) {
        if (limit.isPresent() && limit.getAsLong() < 0) {
            throw new IllegalArgumentException(field + ": " + limit.getAsLong() + " (expected: >= 0)");
        }
    }
}
