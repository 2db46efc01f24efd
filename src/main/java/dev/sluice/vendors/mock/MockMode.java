package dev.sluice.vendors.mock;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * How a mock upstream answers model calls. Each mode reproduces one failure the gateway
 * must classify (see the failure taxonomy in DESIGN.md), or the healthy path.
 */
public enum MockMode {
    OK("answer at once"),
    FAIL("500 server_error"),
    SLOW("answer after --delay-ms; streams pause delay/10 between chunks"),
    RATELIMIT("429 rate_limit_exceeded with Retry-After"),
    AUTH("401 invalid_api_key unless the request carries --api-key"),
    NOTFOUND("404 model_not_found"),
    REJECT("400 invalid_request_error"),
    CONTEXT("400 context_length_exceeded when the prompt is over --max-chars"),
    POLICY("400 content_filter when the prompt contains --trigger"),
    CUT("streams: two chunks, then the connection drops; others: dropped unanswered"),
    HANG("never answer");

    private final String summary;

    MockMode(String summary) {
        this.summary = summary;
    }

    /** The name used on the command line, e.g. {@code ratelimit}. */
    public String cliName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** One line saying what the mode does, for the command's usage text. */
    public String summary() {
        return summary;
    }

    /** Reads a command-line name, in any case; the exception names the value and the choices. */
    public static MockMode fromCliName(String name) {
        for (MockMode mode : values()) {
            if (mode.cliName().equalsIgnoreCase(name)) {
                return mode;
            }
        }
        throw new IllegalArgumentException(
                "unknown mode '" + name + "' (expected one of: " + cliNames() + ")");
    }

    /** All command-line names, comma separated, in declaration order. */
    public static String cliNames() {
        return Arrays.stream(values()).map(MockMode::cliName).collect(Collectors.joining(", "));
    }
}
