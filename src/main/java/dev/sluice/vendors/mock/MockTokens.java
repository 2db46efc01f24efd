package dev.sluice.vendors.mock;

/** The mock's token count: a quarter of the characters, rounded up, and never below one. */
public final class MockTokens {

    private MockTokens() {}

    public static int estimate(int chars) {
        return Math.max(1, (chars + 3) / 4);
    }
}
