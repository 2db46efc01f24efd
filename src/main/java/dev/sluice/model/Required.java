package dev.sluice.model;

/**
 * The null check a compact constructor makes of several components at once, refusing the
 * first null one with a {@link NullPointerException} whose message is its name, as
 * {@link java.util.Objects#requireNonNull(Object, String)} would.
 */
public final class Required {
    private Required() {}

    /**
     * Refuses the first null among {@code values}, named by its place in {@code names}.
     *
     * @param names  the components' names in the order of {@code values}, separated by {@code ", "}
     * @param values the components to check
     * @throws IllegalArgumentException when {@code names} does not name as many components as are given
     */
    public static void nonNull(String names, Object... values) {
        // Records checked here are built per call: the names are only counted, and split only to name a null one.
        int named = 1;
        for (int at = names.indexOf(", "); at >= 0; at = names.indexOf(", ", at + 2)) {
            named++;
        }
        if (named != values.length) {
            throw new IllegalArgumentException("names: \"" + names + "\" (expected: " + values.length + " names)");
        }
        for (int i = 0; i < values.length; i++) {
            if (values[i] == null) {
                throw new NullPointerException(names.split(", ")[i]);
            }
        }
    }
}
