package dev.sluice.edge;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.call.ShownApiBase;
import dev.sluice.config.Deployment;
import dev.sluice.config.LitellmParams;
import dev.sluice.router.DeploymentFailures;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * One deployment as {@code GET /model/state} shows it: what {@code /model/info} says of it
 * that a person watching the router needs (never its key; its {@code api_base} without user
 * info, query or fragment), whether it takes traffic now, and what went wrong with it lately.
 *
 * <p>{@code state} is {@code benched} while its bench lasts (the cooldown store's end, shared
 * across replicas with Redis), {@code counting} while failures in the current minute count
 * toward a bench, else {@code routable}. {@code bench_reason} is known only for a bench this
 * replica made.
 */
final class DeploymentStateView {
    private DeploymentStateView() {}

    /**
     * The deployment's view; {@code withMessages} false leaves each recent failure's
     * {@code message} null: a virtual key reads a shared deployment's failures, whose
     * messages come from other keys' calls and may quote what those sent.
     */
    static ObjectNode of(Deployment deployment, LiveState live, boolean withMessages) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        LitellmParams p = deployment.params();
        ObjectNode view = f.objectNode()
                .put("model_id", deployment.id())
                .put("model_name", deployment.modelName())
                .put("provider", p.provider())
                .put("model", p.model())
                .put("api_base", p.endpoint().apiBase().map(ShownApiBase::of).orElse(null));
        put(view, "weight", p.weight());
        put(view, "rpm", p.capacity().rpm());
        put(view, "tpm", p.capacity().tpm());
        put(view, "order", p.order());
        Optional<Instant> benchedUntil = live.cooldowns().benchEnd(deployment);
        String state = benchedUntil.isPresent() ? "benched" : live.cooldowns().counting(deployment) ? "counting" : "routable";
        view.put("state", state)
                // In whole milliseconds, as Redis shares bench ends: every replica shows the same end.
                .put("benched_until", benchedUntil.map(until -> until.truncatedTo(ChronoUnit.MILLIS).toString()).orElse(null))
                // Only when this replica made the bench in force: it does not know why another one benched it.
                .put("bench_reason", benchedUntil.flatMap(until -> live.failures().benchCause(deployment.id(), until))
                        .map(cause -> cause.wireName()).orElse(null));
        ArrayNode failures = view.putArray("recent_failures");
        for (DeploymentFailures.Seen seen : live.failures().recent(deployment.id())) {
            ObjectNode failure = failures.addObject()
                    .put("at", seen.at().toString())
                    .put("failure_class", seen.kind().wireName());
            if (seen.status() > 0) {
                failure.put("status", seen.status());
            } else {
                failure.putNull("status");
            }
            // Kept with the keys of the deployment that failed masked.
            failure.put("message", withMessages ? seen.message() : null);
        }
        return view;
    }

    private static void put(ObjectNode view, String field, OptionalInt value) {
        if (value.isPresent()) {
            view.put(field, value.getAsInt());
        } else {
            view.putNull(field);
        }
    }

    private static void put(ObjectNode view, String field, OptionalDouble value) {
        if (value.isPresent()) {
            view.put(field, value.getAsDouble());
        } else {
            view.putNull(field);
        }
    }
}
