package dev.sluice.store;

import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link SpendWriter} batches rows and how it waits for an unreachable database.
 *
 * @param maxBatchRows  most rows posted in one transaction; a batch this full is posted at once
 * @param flushInterval longest a recorded row waits in memory before it is posted, or
 *                      written to the buffer on disk during an outage
 * @param maxQueuedRows most rows kept in memory; {@link SpendWriter#record} refuses a row
 *                      beyond it. Rows only pile up here when the database is unreachable
 *                      and the buffer on disk is full
 * @param retryInitial  wait before the first retry of an unreachable database; it doubles
 *                      with each failed retry...
 * @param retryMax      ...up to this
 */
public record SpendWriterOptions(
        int maxBatchRows, Duration flushInterval, int maxQueuedRows, Duration retryInitial, Duration retryMax) {

    /** 500 rows or 200 ms a batch, 100 000 rows in memory, retries from 250 ms doubling to 5 s. */
    public static final SpendWriterOptions DEFAULTS =
            new SpendWriterOptions(500, Duration.ofMillis(200), 100_000, Duration.ofMillis(250), Duration.ofSeconds(5));

    public SpendWriterOptions {
        if (maxBatchRows < 1) {
            throw new IllegalArgumentException("maxBatchRows: " + maxBatchRows + " (expected: >= 1)");
        }
        positive("flushInterval", flushInterval);
        if (maxQueuedRows < maxBatchRows) {
            throw new IllegalArgumentException("maxQueuedRows: " + maxQueuedRows
                    + " (expected: >= maxBatchRows, " + maxBatchRows + ")");
        }
        positive("retryInitial", retryInitial);
        Objects.requireNonNull(retryMax, "retryMax");
        if (retryMax.compareTo(retryInitial) < 0) {
            throw new IllegalArgumentException("retryMax: " + retryMax + " (expected: >= retryInitial, " + retryInitial + ")");
        }
    }

    private static void positive(String field, Duration value) {
        Objects.requireNonNull(value, field);
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(field + ": " + value + " (expected: > 0)");
        }
    }

    public SpendWriterOptions withMaxBatchRows(int rows) {
        return new SpendWriterOptions(rows, flushInterval, maxQueuedRows, retryInitial, retryMax);
    }

    public SpendWriterOptions withFlushInterval(Duration interval) {
        return new SpendWriterOptions(maxBatchRows, interval, maxQueuedRows, retryInitial, retryMax);
    }

    public SpendWriterOptions withMaxQueuedRows(int rows) {
        return new SpendWriterOptions(maxBatchRows, flushInterval, rows, retryInitial, retryMax);
    }

    public SpendWriterOptions withRetry(Duration initial, Duration max) {
        return new SpendWriterOptions(maxBatchRows, flushInterval, maxQueuedRows, initial, max);
    }

    /**
     * The wait after the {@code failures}-th failed attempt in a row (1 for the first):
     * {@link #retryInitial} doubled {@code failures - 1} times, at most {@link #retryMax}.
     */
    Duration retryDelay(int failures) {
        long max = retryMax.toNanos();
        long delay = retryInitial.toNanos();
        for (int i = 1; i < failures && delay < max; i++) {
            delay *= 2;
        }
        return Duration.ofNanos(Math.min(delay, max));
    }
}
