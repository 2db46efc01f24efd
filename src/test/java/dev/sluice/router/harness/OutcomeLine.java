package dev.sluice.router.harness;

import dev.sluice.failure.Failure;
import dev.sluice.router.RouteOutcome;
import dev.sluice.router.RouteOutcome.FailedAt;
import dev.sluice.router.RouteOutcome.GroupRun;
import dev.sluice.router.RouteOutcome.SkippedFallback;
import dev.sluice.router.RouteOutcome.Tried;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A whole {@link RouteOutcome} as one line, so a test asserts all of it at once:
 * <pre>
 * failure chat/a1 server 500 | last g2/b1 | retries 0 | fallbacks 1 | tried chat[a1:server] g2[b1:rejected] | skipped g3:max_fallbacks
 * served by c1 | last g3/c1 | retries 0 | fallbacks 2 | tried chat[a1:server] g2[b1:server] g3[c1:served]
 * </pre>
 * The first part is the answer: what served, or the failure the caller is answered with and
 * where it happened ({@code chat/-} when no deployment was called).
 */
public final class OutcomeLine {
    private OutcomeLine() {}

    public static String of(RouteOutcome<String> outcome) {
        List<String> parts = new ArrayList<>();
        if (outcome.cancelled()) {
            parts.add("cancelled");
        }
        outcome.served().ifPresent(parts::add);
        outcome.failure().ifPresent(at -> parts.add("failure " + where(at) + " " + describe(at.failure())));
        parts.add("last " + outcome.lastGroup() + "/" + (outcome.lastDeployment() == null ? "-" : outcome.lastDeployment().id()));
        parts.add("retries " + outcome.retriesInLastGroup());
        parts.add("fallbacks " + outcome.fallbacksTried());
        parts.add("tried " + outcome.groups().stream().map(OutcomeLine::run).collect(Collectors.joining(" ")));
        if (!outcome.skipped().isEmpty()) {
            parts.add("skipped " + outcome.skipped().stream().map(OutcomeLine::skip).collect(Collectors.joining(" ")));
        }
        return String.join(" | ", parts);
    }

    private static String where(FailedAt at) {
        return at.group() + "/" + at.deployment().map(d -> d.id()).orElse("-");
    }

    private static String describe(Failure failure) {
        return failure.kind().wireName() + (failure.answered() ? " " + failure.status() : "");
    }

    private static String run(GroupRun run) {
        return run.group() + "[" + run.attempts().stream().map(OutcomeLine::tried).collect(Collectors.joining(" ")) + "]";
    }

    private static String tried(Tried tried) {
        return tried.deployment().id() + ":" + tried.failure().map(f -> f.kind().wireName()).orElse("served");
    }

    private static String skip(SkippedFallback skipped) {
        return skipped.group() + ":" + skipped.reason().wireName();
    }
}
