package dev.sluice.config;

import java.util.ArrayList;
import java.util.List;

/**
 * Every problem found in one config, so a single start-up attempt reports them all.
 * Each reads {@code <path>: <value as written> (expected: <rule>)}.
 */
final class Problems {
    private final List<String> problems = new ArrayList<>();

    /** @param shown the value as written, already rendered by {@link ShownValue} (so never a secret) */
    void add(ConfigNode node, String shown, String expected) {
        problems.add(node.path() + ": " + shown + " (expected: " + expected + ")");
    }

    void missing(ConfigNode node, String expected) {
        add(node, "missing", expected);
    }

    void throwIfAny() throws ConfigException {
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
    }
}
