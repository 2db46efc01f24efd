package dev.sluice.router;

import dev.sluice.config.Deployment;
import java.util.ArrayList;
import java.util.List;

/**
 * The model groups being served right now: those of the config, plus deployments added at
 * run time. Readers take {@link #current()} once per request and see one consistent set;
 * a change builds a new set and swaps it in, so no request ever sees half of one.
 */
public final class ModelRegistry {
    private volatile ModelGroups current;
    private volatile List<Deployment> deployments;

    public ModelRegistry(List<Deployment> deployments) {
        this.deployments = List.copyOf(deployments);
        this.current = ModelGroups.of(this.deployments);
    }

    public ModelGroups current() {
        return current;
    }

    public List<Deployment> deployments() {
        return deployments;
    }

    /**
     * Adds a deployment to its group (creating the group if new).
     *
     * @throws IllegalArgumentException if a deployment with the same id is already served
     */
    public synchronized void add(Deployment deployment) {
        for (Deployment d : deployments) {
            if (d.id().equals(deployment.id())) {
                throw new IllegalArgumentException("a deployment with id '" + deployment.id() + "' is already served (model group '"
                        + d.modelName() + "')");
            }
        }
        List<Deployment> next = new ArrayList<>(deployments);
        next.add(deployment);
        deployments = List.copyOf(next);
        current = ModelGroups.of(deployments);
    }
}
