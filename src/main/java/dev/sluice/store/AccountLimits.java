package dev.sluice.store;

import java.util.Objects;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * The rate limits an account sets, each absent when not set: {@code rpm_limit},
 * {@code tpm_limit} and {@code max_parallel_requests}, in the columns of the same names. A
 * limit of 0 is a real limit that admits nothing. Teams, organizations and customers have no
 * {@code max_parallel_requests} column, so theirs is always absent.
 */
public record AccountLimits(OptionalLong rpmLimit, OptionalLong tpmLimit, OptionalInt maxParallelRequests) {

    /** No limits at all. */
    public static final AccountLimits NONE = new AccountLimits(OptionalLong.empty(), OptionalLong.empty(), OptionalInt.empty());

    public AccountLimits {
        check("rpm_limit", rpmLimit);
        check("tpm_limit", tpmLimit);
        Objects.requireNonNull(maxParallelRequests, "max_parallel_requests");
        if (maxParallelRequests.isPresent() && maxParallelRequests.getAsInt() < 0) {
            throw new IllegalArgumentException("max_parallel_requests: " + maxParallelRequests.getAsInt() + " (expected: >= 0)");
        }
    }

    /** From the values a builder holds, each {@code null} when not set. */
    static AccountLimits of(Long rpmLimit, Long tpmLimit, Integer maxParallelRequests) {
        return new AccountLimits(optional(rpmLimit), optional(tpmLimit),
                maxParallelRequests == null ? OptionalInt.empty() : OptionalInt.of(maxParallelRequests));
    }

    /** Refuses a {@code max_parallel_requests} on an account kind that has no column for it. */
    AccountLimits withoutParallelLimit(String kind) {
        if (maxParallelRequests.isPresent()) {
            throw new IllegalArgumentException("max_parallel_requests: " + maxParallelRequests.getAsInt()
                    + " (expected: none, " + kind + " have no parallel limit)");
        }
        return this;
    }

    static Long boxed(OptionalLong value) {
        return value.isPresent() ? value.getAsLong() : null;
    }

    static Integer boxed(OptionalInt value) {
        return value.isPresent() ? value.getAsInt() : null;
    }

    private static OptionalLong optional(Long value) {
        return value == null ? OptionalLong.empty() : OptionalLong.of(value);
    }

    private static void check(String field, OptionalLong limit) {
        Objects.requireNonNull(limit, field);
        if (limit.isPresent() && limit.getAsLong() < 0) {
            throw new IllegalArgumentException(field + ": " + limit.getAsLong() + " (expected: >= 0)");
        }
    }
}
