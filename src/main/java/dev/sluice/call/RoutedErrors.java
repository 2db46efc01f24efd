package dev.sluice.call;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.config.Deployment;
import dev.sluice.failure.CallerError;
import dev.sluice.failure.Failure;
import dev.sluice.failure.FailureClass;
import dev.sluice.router.RouteOutcome;
import dev.sluice.router.RouteOutcome.FailedAt;
import dev.sluice.router.RouteOutcome.GroupRun;
import dev.sluice.router.RouteOutcome.SkippedFallback;
import dev.sluice.router.RouteOutcome.Tried;
import dev.sluice.vendors.Provider;
import dev.sluice.vendors.Providers;
import dev.sluice.vendors.entry.IngressCodec;
import dev.sluice.wire.ApiError;
import dev.sluice.wire.ErrorBodies;
import dev.sluice.wire.Json;
import io.vertx.core.http.HttpServerResponse;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a caller is told when routing ends without an answer. An upstream's own error
 * passes through with its status and words, in OpenAI's shape, with one sentence added
 * saying what Sluice did about it. An attempt without an HTTP answer is named with its
 * cause: 408 for a timeout, 502 otherwise, and 503 "all backends unavailable" only when more
 * than one deployment was tried and every one was unavailable. A guardrail's refusal is a
 * 400 of its own.
 */
final class RoutedErrors {
    private final Providers providers;

    RoutedErrors(Providers providers) {
        this.providers = providers;
    }

    void answer(HttpServerResponse response, RouteOutcome<?> outcome, IngressCodec codec) {
        FailedAt failedAt = outcome.failure().orElseThrow();
        Failure failure = failedAt.failure();
        String what = whatSluiceDid(outcome.requestedGroup(), outcome);
        if (failedAt.deployment().isEmpty()) {
            refusedBeforeCalling(response, failure, what, codec);
            return;
        }
        Deployment failed = failedAt.deployment().get();
        String where = "deployment '" + failed.id() + "' of model group '" + failedAt.group() + "'";
        if (failure.kind().endsRequest()) {
            CallerError told = failure.kind().toldWhenUnanswered();
            CallerErrors.write(response, codec, new ApiError(told.status(), told.type(), "Sluice: " + failure.cause()
                    + " The request was not sent to any other deployment or fallback.", null, told.code()));
            return;
        }
        if (failure.answered() && failure.status() >= 300 && failure.status() < 400) {
            String location = failure.header("Location").orElse(null);
            CallerErrors.write(response, codec, new ApiError(502, "server_error", "Sluice: " + where + " answered " + failure.status()
                    + " redirecting to " + location + "; check its api_base (Sluice does not follow redirects). " + what,
                    null, "upstream_redirect"));
            return;
        }
        if (failure.answered()) {
            Provider provider = providers.forDeployment(failed);
            KeyMask mask = new KeyMask(provider.secrets(failed));
            ObjectNode body = provider.normaliseError(failure.status(), failure.body());
            mask.tree(body);
            JsonNode error = body.get("error");
            if (error instanceof ObjectNode e) {
                JsonNode message = e.get("message");
                String upstream = message != null && message.isTextual() ? message.textValue() : "";
                e.put("message", upstream.isEmpty() ? what : upstream + "\n\n" + what);
            }
            UpstreamHeaders.copy(mask.headers(failure.headers()), response);
            CallerErrors.json(response, codec, failure.status(), body);
            return;
        }
        List<Tried> unavailable = allUnavailable(outcome);
        if (unavailable != null && distinctDeployments(unavailable) > 1) {
            CallerErrors.json(response, codec, 503, ErrorBodies.node("Sluice: all backends unavailable: "
                    + describeAll(outcome) + ". " + what, "server_error", null, "all_backends_unavailable"));
            return;
        }
        CallerError told = failure.kind().toldWhenUnanswered();
        CallerErrors.write(response, codec, new ApiError(told.status(), told.type(),
                "Sluice: " + where + " " + told.verb() + ": " + failure.cause() + ". " + what, null, told.code()));
    }

    /**
     * No deployment was called: the pre-call checks found none whose context window takes the
     * prompt (400, as a provider would say it), the tag filter none that takes the request's
     * tags (400), or the strategy found none with capacity left this minute (429, with the wait
     * until the next minute as {@code Retry-After}).
     */
    private static void refusedBeforeCalling(HttpServerResponse response, Failure failure, String what, IngressCodec codec) {
        String cause = failure.cause().startsWith("Sluice: ") ? failure.cause().substring(8) : failure.cause();
        CallerError told = failure.kind().toldWhenRefusedBeforeCalling();
        if (told.status() == 429) {
            failure.retryAfter().ifPresent(wait -> response.putHeader("Retry-After",
                    Long.toString(Math.max(1, (wait.toMillis() + 999) / 1000))));
            CallerErrors.write(response, codec, new ApiError(told.status(), told.type(), "Sluice: " + cause + ". " + what, null, told.code()));
            return;
        }
        String param = failure.kind() == FailureClass.CONTEXT_WINDOW ? "messages" : "tags";
        CallerErrors.write(response, codec, new ApiError(told.status(), told.type(), "Sluice: " + cause + " " + what, param, told.code()));
    }

    /** The sentence that closes every routed error: which group failed and what became of its fallbacks. */
    static String whatSluiceDid(String requested, RouteOutcome<?> outcome) {
        StringBuilder s = new StringBuilder("Sluice: model group '").append(requested).append("' failed with the error above.");
        List<GroupRun> groups = outcome.groups();
        for (GroupRun run : groups.subList(1, groups.size())) {
            s.append(" Fallback to '").append(run.group()).append("' failed too");
            run.lastFailure().ifPresent(f -> s.append(" (").append(f.kind().wireName())
                    .append(f.answered() ? " " + f.status() : "").append(")"));
            s.append('.');
        }
        for (SkippedFallback skip : outcome.skipped()) {
            s.append(" Fallback to '").append(skip.group()).append("' was skipped").append(skip.reason().sentence()).append('.');
        }
        if (groups.size() == 1) {
            s.append(" No fallback was attempted.");
        }
        return s.toString();
    }

    /** Every attempt of the request, or null if one of them failed for a reason other than unavailability. */
    private static List<Tried> allUnavailable(RouteOutcome<?> outcome) {
        List<Tried> all = new ArrayList<>();
        for (GroupRun run : outcome.groups()) {
            for (Tried t : run.attempts()) {
                if (t.failure().isEmpty() || !t.failure().get().kind().unavailable()) {
                    return null;
                }
                all.add(t);
            }
        }
        return all;
    }

    private static int distinctDeployments(List<Tried> attempts) {
        Set<String> ids = new LinkedHashSet<>();
        attempts.forEach(t -> ids.add(t.deployment().id()));
        return ids.size();
    }

    private static String describeAll(RouteOutcome<?> outcome) {
        List<String> parts = new ArrayList<>();
        for (GroupRun run : outcome.groups()) {
            for (Tried t : run.attempts()) {
                Failure f = t.failure().orElseThrow();
                parts.add("deployment '" + t.deployment().id() + "' of model group '" + run.group() + "': "
                        + (f.answered() ? f.kind().wireName() + " " + f.status() : f.cause()));
            }
        }
        return String.join("; ", parts);
    }
}
