package dev.sluice.router.harness;

import dev.sluice.router.AttemptPlan;
import dev.sluice.router.AttemptResult;
import dev.sluice.router.Attempter;
import dev.sluice.testing.FakeTime;
import io.vertx.core.Future;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Answers each attempt by its deployment's script, in place of an upstream: the next
 * {@link Step} queued for the deployment, else the step it {@link #always} takes. An attempt
 * on a deployment with nothing scripted is a test error, so a test that routes somewhere it
 * did not expect fails. The answer is complete when returned, and each attempt's fake time
 * has passed by then. A served attempt's answer is {@code "served by <id>"}.
 */
public final class ScriptedAttempter implements Attempter<String> {
    private final FakeTime time;
    private final Map<String, Deque<Step>> scripts = new HashMap<>();
    private final Map<String, Step> always = new HashMap<>();
    private final List<AttemptPlan> plans = new CopyOnWriteArrayList<>();

    public ScriptedAttempter(FakeTime time) {
        this.time = time;
    }

    /** Queues {@code steps} for the next attempts on {@code deploymentId}, after any already queued. */
    public ScriptedAttempter script(String deploymentId, Step... steps) {
        Deque<Step> queue = scripts.computeIfAbsent(deploymentId, id -> new ArrayDeque<>());
        queue.addAll(List.of(steps));
        return this;
    }

    /** What every attempt on {@code deploymentId} does once its queued steps are used up. */
    public ScriptedAttempter always(String deploymentId, Step step) {
        always.put(deploymentId, step);
        return this;
    }

    @Override
    public Future<AttemptResult<String>> attempt(AttemptPlan plan) {
        plans.add(plan);
        String id = plan.deployment().id();
        Deque<Step> queue = scripts.get(id);
        Step step = queue != null && !queue.isEmpty() ? queue.poll() : always.get(id);
        if (step == null) {
            throw new AssertionError("deployment '" + id + "' was called (attempt " + plans.size()
                    + " of the test) but nothing more is scripted for it");
        }
        time.advance(step.duration(plan));
        return Future.succeededFuture(step.failure()
                .<AttemptResult<String>>map(AttemptResult::failed)
                .orElseGet(() -> AttemptResult.served("served by " + id)));
    }

    /** Every attempt the router asked for, in order. */
    public List<AttemptPlan> plans() {
        return List.copyOf(plans);
    }
}
