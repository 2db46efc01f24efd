package dev.sluice.http;

import dev.sluice.wire.ApiError;
import io.vertx.core.http.HttpServerRequest;

/**
 * The mark every call Sluice sends upstream carries: the instances of Sluice it has passed
 * through, this one last. A deployment whose {@code api_base} leads back to a gateway it came
 * from (itself, or a ring of replicas) would otherwise call itself until something gave
 * out; a call that arrives carrying this gateway's own mark, or too many marks, is answered
 * 508 Loop Detected at once.
 */
public final class Hops {
    public static final String HEADER = "x-sluice-hops";
    /** The most gateways a call may have passed through before it reaches this one. */
    public static final int MAX = 8;

    private Hops() {}

    /** Refuses a call that has already passed through {@code instance}, or through {@link #MAX} gateways. */
    public static void check(HttpServerRequest request, String instance) {
        String arrived = request.getHeader(HEADER);
        if (arrived == null) {
            return;
        }
        String[] marks = arrived.split(",");
        for (String mark : marks) {
            if (mark.strip().equals(instance)) {
                throw loop("it has already passed through this gateway: a deployment's api_base leads back to it");
            }
        }
        if (marks.length >= MAX) {
            throw loop("it has passed through " + marks.length + " gateways, and at most " + MAX + " are allowed");
        }
    }

    /** The mark an outgoing call carries: the marks the caller's call arrived with, and {@code instance}'s. */
    public static String next(String arrived, String instance) {
        return arrived == null || arrived.isBlank() ? instance : arrived + "," + instance;
    }

    private static ApiError loop(String why) {
        return new ApiError(508, "invalid_request_error", "Sluice refused a looping call: " + why + ".", null, "loop_detected");
    }
}
