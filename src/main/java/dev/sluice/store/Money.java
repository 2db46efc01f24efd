package dev.sluice.store;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Objects;

/**
 * Amounts of US dollars as the store keeps them: {@link BigDecimal}s of scale 12, exact to
 * a trillionth of a dollar, so a key's spend is the exact sum of its calls' costs in any
 * order and on either engine (a column of {@code NUMERIC(30, 12)}). Values of other scales
 * are rounded half-even once, on the way in, so what a record holds is what a read returns.
 */
public final class Money {
    public static final int SCALE = 12;
    public static final BigDecimal ZERO = BigDecimal.ZERO.setScale(SCALE);

    private Money() {}

    public static BigDecimal of(BigDecimal amount) {
        Objects.requireNonNull(amount, "amount");
        return amount.setScale(SCALE, RoundingMode.HALF_EVEN);
    }

    /** A price-times-tokens double, by its shortest decimal form (0.1 is 0.1, not 0.1000000000000000055...). */
    public static BigDecimal of(double amount) {
        if (!Double.isFinite(amount)) {
            throw new IllegalArgumentException("amount: " + amount + " (expected: a finite number)");
        }
        return of(BigDecimal.valueOf(amount));
    }

    static BigDecimal nonNegative(String field, BigDecimal amount) {
        Objects.requireNonNull(amount, field);
        if (amount.signum() < 0) {
            throw new IllegalArgumentException(field + ": " + amount.toPlainString() + " (expected: >= 0)");
        }
        return of(amount);
    }
}
