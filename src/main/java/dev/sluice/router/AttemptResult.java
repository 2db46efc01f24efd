package dev.sluice.router;

import dev.sluice.failure.Failure;

/** How one attempt ended: served (with whatever the caller of the router needs), or failed. */
public sealed interface AttemptResult<T> {

    record Served<T>(T answer) implements AttemptResult<T> {}

    record Failed<T>(Failure failure) implements AttemptResult<T> {}

    static <T> AttemptResult<T> served(T answer) {
        return new Served<>(answer);
    }

    static <T> AttemptResult<T> failed(Failure failure) {
        return new Failed<>(failure);
    }
}
