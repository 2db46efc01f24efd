package dev.sluice.router.strategy;

import dev.sluice.config.Deployment;
import dev.sluice.config.LitellmParams;
import dev.sluice.router.signals.UsageWindows;
import dev.sluice.router.signals.UsageWindows.Usage;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Which candidates still have room for a request this minute under their own {@code tpm}
 * and {@code rpm}, the filter the usage-, latency- and cost-based strategies share.
 *
 * <p>A deployment fits when this minute's tokens plus the request's prompt tokens stay
 * within {@code tpm}, and this minute's requests plus this one stay within {@code rpm}:
 * at exactly the limit it fits, one over it does not. A limit that is not set never
 * excludes. This is LiteLLM's rule for {@code tpm}; for {@code rpm} LiteLLM's usage-based
 * strategies skip a deployment already one request short of its limit ({@code used + 1 >=
 * rpm}), so a deployment with {@code rpm: 60} takes 59 requests a minute there and 60 here.
 */
final class CapacityCheck {

    /** A candidate with room, and what it has used this minute. */
    record Fit(Deployment deployment, Usage used) {}

    private final UsageWindows usage;

    CapacityCheck(UsageWindows usage) {
        this.usage = usage;
    }

    /**
     * Hands the candidates with room (in their order, never an empty list) to
     * {@code chooser}; when none has room, says why for each one.
     */
    Pick pick(List<Deployment> candidates, RequestFacts request, Instant now, Function<List<Fit>, Deployment> chooser) {
        int n = candidates.size();
        Usage[] used = new Usage[n];
        List<Fit> fits = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Deployment d = candidates.get(i);
            used[i] = usage.current(d.id(), now);
            if (fits(d.params(), used[i], request.promptTokens())) {
                fits.add(new Fit(d, used[i]));
            }
        }
        if (!fits.isEmpty()) {
            return Pick.of(chooser.apply(fits));
        }
        return new Pick.NoCapacity(refusal(candidates, used, request));
    }

    static boolean fits(LitellmParams params, Usage used, int promptTokens) {
        return UsageWindows.hasRoom(used, params.capacity().rpm(), params.capacity().tpm(), promptTokens);
    }

    private static boolean overTpm(LitellmParams params, Usage used, int promptTokens) {
        return params.capacity().tpm().isPresent() && used.tokens() + promptTokens > params.capacity().tpm().getAsInt();
    }

    private static boolean overRpm(LitellmParams params, Usage used) {
        return params.capacity().rpm().isPresent() && used.requests() + 1 > params.capacity().rpm().getAsInt();
    }

    /**
     * E.g. {@code model group 'chat' has no deployment with room for this request this minute:
     * deployment 'a': 9800 + 400 tokens > tpm 10000; deployment 'b': 60 + 1 requests > rpm 60}.
     */
    private static String refusal(List<Deployment> candidates, Usage[] used, RequestFacts request) {
        StringBuilder reason = new StringBuilder("model group '").append(request.group())
                .append("' has no deployment with room for this request this minute: ");
        for (int i = 0; i < candidates.size(); i++) {
            Deployment d = candidates.get(i);
            LitellmParams p = d.params();
            if (i > 0) {
                reason.append("; ");
            }
            reason.append("deployment '").append(d.id()).append("': ");
            boolean overTpm = overTpm(p, used[i], request.promptTokens());
            if (overTpm) {
                reason.append(used[i].tokens()).append(" + ").append(request.promptTokens())
                        .append(" tokens > tpm ").append(p.capacity().tpm().getAsInt());
            }
            if (overRpm(p, used[i])) {
                reason.append(overTpm ? ", " : "").append(used[i].requests())
                        .append(" + 1 requests > rpm ").append(p.capacity().rpm().getAsInt());
            }
        }
        return reason.toString();
    }
}
