package dev.sluice.admin;

import java.math.BigDecimal;

/**
 * Dollar amounts as the key and team API writes them: the stored decimal, exact, without
 * the store's trailing zeros ({@code 12.5}, not {@code 12.500000000000}), and never in
 * exponent form ({@code 100}, not {@code 1E+2}).
 */
final class Dollars {
    private Dollars() {}

    static BigDecimal shown(BigDecimal amount) {
        BigDecimal stripped = amount.stripTrailingZeros();
        return stripped.scale() < 0 ? stripped.setScale(0) : stripped;
    }
}
