package dev.sluice.router.precall;

import dev.sluice.config.Deployment;
import dev.sluice.failure.Failure;
import dev.sluice.failure.FailureClass;
import io.vertx.core.buffer.Buffer;
import java.util.List;
import java.util.Optional;

/**
 * What the pre-call checks left of a group's candidates.
 *
 * @param kept             the candidates a strategy may pick from, in the order given;
 *                         empty only when every candidate was dropped (or none was given)
 * @param dropped          each candidate a check took out, with the check and why, in the
 *                         order the checks ran
 * @param allDroppedReason when every candidate was dropped: why no deployment of the group
 *                         can take the request, for the caller's error message
 */
public record Checked(List<Deployment> kept, List<Dropped> dropped, Optional<String> allDroppedReason) {

    public Checked {
        kept = List.copyOf(kept);
        dropped = List.copyOf(dropped);
    }

    /**
     * One candidate a check took out.
     *
     * @param check  {@link PreCallChecks#CONTEXT_WINDOW}, {@link PreCallChecks#ORDER} or
     *               {@link PreCallChecks#PROMPT_CACHING}
     * @param reason e.g. {@code the prompt has 9000 tokens and deployment 'a' takes at most 8192}
     */
    public record Dropped(Deployment deployment, String check, String reason) {}

    /**
     * When every candidate was dropped, the failure the group ends with: a
     * {@link FailureClass#CONTEXT_WINDOW} failure without an upstream answer, so the request
     * goes on to {@code context_window_fallbacks} as if every deployment had refused it.
     */
    public Optional<Failure> failure() {
        return allDroppedReason.map(reason ->
                new Failure(FailureClass.CONTEXT_WINDOW, 0, Buffer.buffer(), Optional.empty(), reason));
    }
}
