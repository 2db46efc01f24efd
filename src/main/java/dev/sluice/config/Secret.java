package dev.sluice.config;

import java.util.Objects;

/**
 * A credential read from config or the environment. Its {@link #toString()} never shows
 * the value, so a secret that ends up in a log line or an error message stays hidden.
 */
public record Secret(String value) {
    public Secret {
        Objects.requireNonNull(value, "value");
    }

    /** A recognisable but harmless rendering: the last four characters at most. */
    public String masked() {
        return value.length() <= 8 ? "****" : "****" + value.substring(value.length() - 4);
    }

    @Override
    public String toString() {
        return masked();
    }
}
