package dev.sluice.accounts.spend;

import java.math.BigDecimal;

/**
 * Writes a double the way Python's {@code repr} does, which is how LiteLLM's messages show
 * amounts: the shortest digits that read back as the same number; plain notation with at
 * least one decimal ({@code 100.0}, {@code 0.0001}) while the decimal exponent is from -4 to
 * 15, else scientific with a signed two-digit exponent ({@code 6.2e-05}, {@code 1e+16}).
 */
public final class PythonFloats {
    private PythonFloats() {}

    public static String repr(double value) {
        if (Double.isNaN(value)) {
            return "nan";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "inf" : "-inf";
        }
        if (value == 0) {
            return Double.doubleToRawLongBits(value) < 0 ? "-0.0" : "0.0";
        }
        // Double.toString gives the shortest digits that read back exactly (JDK 19 and later).
        BigDecimal exact = new BigDecimal(Double.toString(value)).stripTrailingZeros();
        String sign = exact.signum() < 0 ? "-" : "";
        String digits = exact.unscaledValue().abs().toString();
        int exponent = digits.length() - 1 - exact.scale();
        if (exponent < -4 || exponent >= 16) {
            String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
            return sign + mantissa + "e" + (exponent < 0 ? "-" : "+") + (Math.abs(exponent) < 10 ? "0" : "") + Math.abs(exponent);
        }
        String plain = exact.abs().toPlainString();
        return sign + (plain.contains(".") ? plain : plain + ".0");
    }
}
