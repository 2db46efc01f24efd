package dev.sluice.store.journal;

import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link JournalShipper} batches records and how it waits for an unreachable sink.
 *
 * @param maxBatchRows most rows posted in one call of the sink
 * @param gatherWait   how long the shipper, having posted all there was, lets new records
 *                     gather before it reads again: the trade between batch size and how
 *                     soon a row reaches the database
 * @param retryInitial wait before the first retry of an unreachable sink; it doubles with
 *                     each failed retry...
 * @param retryMax     ...up to this
 * @param closeTimeout how long {@link JournalShipper#close()} ships what is left before it stops
 */
public record ShipperOptions(
        int maxBatchRows, Duration gatherWait, Duration retryInitial, Duration retryMax, Duration closeTimeout) {

    /** 1000 rows a post, 50 ms to gather, retries from 250 ms doubling to 5 s, 10 s to close. */
    public static final ShipperOptions DEFAULTS = new ShipperOptions(1000, Duration.ofMillis(50),
            Duration.ofMillis(250), Duration.ofSeconds(5), Duration.ofSeconds(10));

    public ShipperOptions {
        if (maxBatchRows < 1) {
            throw new IllegalArgumentException("maxBatchRows: " + maxBatchRows + " (expected: >= 1)");
        }
        positive("gatherWait", gatherWait);
        positive("retryInitial", retryInitial);
        Objects.requireNonNull(retryMax, "retryMax");
        if (retryMax.compareTo(retryInitial) < 0) {
            throw new IllegalArgumentException("retryMax: " + retryMax + " (expected: >= retryInitial, " + retryInitial
                    + ")");
        }
        Objects.requireNonNull(closeTimeout, "closeTimeout");
        if (closeTimeout.isNegative()) {
            throw new IllegalArgumentException("closeTimeout: " + closeTimeout + " (expected: >= 0)");
        }
    }

    private static void positive(String field, Duration value) {
        Objects.requireNonNull(value, field);
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(field + ": " + value + " (expected: > 0)");
        }
    }

    public ShipperOptions withMaxBatchRows(int rows) {
        return new ShipperOptions(rows, gatherWait, retryInitial, retryMax, closeTimeout);
    }

    public ShipperOptions withGatherWait(Duration wait) {
        return new ShipperOptions(maxBatchRows, wait, retryInitial, retryMax, closeTimeout);
    }

    public ShipperOptions withRetry(Duration initial, Duration max) {
        return new ShipperOptions(maxBatchRows, gatherWait, initial, max, closeTimeout);
    }

    public ShipperOptions withCloseTimeout(Duration timeout) {
        return new ShipperOptions(maxBatchRows, gatherWait, retryInitial, retryMax, timeout);
    }

    /**
     * The pause after the {@code failures}-th failed post in a row, which took {@code took}: its
     * {@link #retryDelay} counted from the post's start, as the post's own wait for a connection
     * is part of the back-off; never less than {@link #retryInitial}, so posts that each wait out
     * a connection timeout do not follow one another without a breath.
     */
    Duration retryPause(int failures, Duration took) {
        Duration left = retryDelay(failures).minus(took);
        return left.compareTo(retryInitial) < 0 ? retryInitial : left;
    }

    /** The wait after the {@code failures}-th failed post in a row (1 for the first). */
    Duration retryDelay(int failures) {
        long max = retryMax.toNanos();
        long delay = retryInitial.toNanos();
        for (int i = 1; i < failures && delay < max; i++) {
            delay *= 2;
        }
        return Duration.ofNanos(Math.min(delay, max));
    }
}
