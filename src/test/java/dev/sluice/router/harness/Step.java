package dev.sluice.router.harness;

import dev.sluice.failure.Failure;
import dev.sluice.failure.FailureClass;
import dev.sluice.router.AttemptPlan;
import io.vertx.core.buffer.Buffer;
import java.time.Duration;
import java.util.Optional;

/**
 * How one scripted attempt goes: served, or failed with a failure of a class (its status and
 * {@code Retry-After} as an upstream would send them), after taking some fake time. A
 * {@link #timesOut()} step takes the whole of the attempt's deadline, as a hung upstream would.
 *
 * @param takes            the fake time the attempt takes before it answers
 * @param takesItsDeadline whether it takes its plan's whole deadline instead
 * @param failure          how it fails; empty when it serves
 */
public record Step(Duration takes, boolean takesItsDeadline, Optional<Failure> failure) {

    /** The deployment answers at once. */
    public static Step serves() {
        return new Step(Duration.ZERO, false, Optional.empty());
    }

    /** A failure of {@code kind} with the status an upstream sends for it (0 where none answers). */
    public static Step fails(FailureClass kind) {
        return fails(kind, usualStatus(kind));
    }

    public static Step fails(FailureClass kind, int status) {
        return failure(new Failure(kind, status, Buffer.buffer(), Optional.empty(), status == 0 ? kind.wireName() : ""));
    }

    /** A failure of {@code kind} whose upstream asked, with {@code Retry-After}, to be left alone for {@code retryAfter}. */
    public static Step fails(FailureClass kind, Duration retryAfter) {
        return failure(new Failure(kind, usualStatus(kind), Buffer.buffer(), Optional.of(retryAfter), ""));
    }

    /** A 429 with {@code Retry-After}. */
    public static Step rateLimited(Duration retryAfter) {
        return fails(FailureClass.RATE_LIMITED, retryAfter);
    }

    /** The upstream never answers: the attempt takes its whole deadline and fails as a timeout. */
    public static Step timesOut() {
        return new Step(Duration.ZERO, true, Optional.of(Failure.of(FailureClass.TIMEOUT, "timed out")));
    }

    public static Step failure(Failure failure) {
        return new Step(Duration.ZERO, false, Optional.of(failure));
    }

    /** This step, answering only after {@code time} has passed. */
    public Step after(Duration time) {
        return new Step(time, false, failure);
    }

    /** How much fake time the attempt planned as {@code plan} takes. */
    Duration duration(AttemptPlan plan) {
        return takesItsDeadline ? plan.deadline().perTry() : takes;
    }

    private static int usualStatus(FailureClass kind) {
        return switch (kind) {
            case RATE_LIMITED -> 429;
            case SERVER -> 500;
            case AUTH -> 401;
            case NOT_FOUND -> 404;
            case REJECTED, CONTEXT_WINDOW, CONTENT_POLICY -> 400;
            case TRANSPORT, TIMEOUT, GUARDRAIL -> 0;
        };
    }
}
