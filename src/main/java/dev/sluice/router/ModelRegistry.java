package dev.sluice.router;

import dev.sluice.config.Deployment;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The model groups being served right now: the config file's deployments, then those added
 * at run time through the model API. Readers take {@link #current()} once per request and
 * see one consistent set; a change builds a new set and swaps it in, so no request ever sees
 * half of one. The config file's deployments never change while the gateway runs; added ones
 * can be added, replaced and removed, and replaced all at once by what the store holds.
 */
public final class ModelRegistry {
    private final List<Deployment> configured;
    private volatile List<Deployment> added = List.of();
    private volatile List<Deployment> deployments;
    private volatile ModelGroups current;
    /** Told of each deployment added or replaced through the model API on this gateway. */
    private volatile Consumer<Deployment> changed = d -> {};
    /** Told of the deployments served after each change, whatever made it (the API, the store, a removal). */
    private volatile Consumer<List<Deployment>> swapped = all -> {};

    public ModelRegistry(List<Deployment> configured) {
        this.configured = List.copyOf(configured);
        this.deployments = this.configured;
        this.current = ModelGroups.of(this.deployments);
    }

    public ModelGroups current() {
        return current;
    }

    /** Every deployment served: the config file's, then the added ones. */
    public List<Deployment> deployments() {
        return deployments;
    }

    /** The deployments added at run time, in the order they were added. */
    public List<Deployment> added() {
        return added;
    }

    /** The served deployment with this id. */
    public Optional<Deployment> find(String id) {
        for (Deployment d : deployments) {
            if (d.id().equals(id)) {
                return Optional.of(d);
            }
        }
        return Optional.empty();
    }

    /** Whether the deployment with this id comes from the config file (and so cannot be changed through the API). */
    public boolean isConfigured(String id) {
        return configured.stream().anyMatch(d -> d.id().equals(id));
    }

    /** Tells {@code listener} of each deployment {@link #add added} or {@link #replace replaced} from now on. */
    public void whenChanged(Consumer<Deployment> listener) {
        changed = listener;
    }

    /** Tells {@code listener} of the deployments served after each change from now on. */
    public void whenSwapped(Consumer<List<Deployment>> listener) {
        swapped = listener;
    }

    /**
     * Adds a deployment to its group (creating the group if new).
     *
     * @throws IllegalArgumentException if a deployment with the same id is already served
     */
    public synchronized void add(Deployment deployment) {
        find(deployment.id()).ifPresent(served -> {
            throw new IllegalArgumentException("a deployment with id '" + deployment.id() + "' is already served (model group '"
                    + served.modelName() + "')");
        });
        List<Deployment> next = new ArrayList<>(added);
        next.add(deployment);
        swap(next);
        changed.accept(deployment);
    }

    /**
     * Puts {@code deployment} in the place of the added deployment with its id.
     *
     * @throws IllegalArgumentException if no added deployment has its id
     */
    public synchronized void replace(Deployment deployment) {
        List<Deployment> next = new ArrayList<>(added);
        int at = indexOf(next, deployment.id());
        if (at < 0) {
            throw new IllegalArgumentException("no deployment with id '" + deployment.id() + "' was added at run time");
        }
        next.set(at, deployment);
        swap(next);
        changed.accept(deployment);
    }

    /** Stops serving the added deployment with this id; false when none has it. */
    public synchronized boolean remove(String id) {
        List<Deployment> next = new ArrayList<>(added);
        int at = indexOf(next, id);
        if (at < 0) {
            return false;
        }
        next.remove(at);
        swap(next);
        return true;
    }

    /**
     * Serves exactly {@code stored} as the added deployments, as the store holds them. One
     * whose id the config file uses is left out: the file's deployment wins.
     */
    public synchronized void replaceAdded(List<Deployment> stored) {
        List<Deployment> next = new ArrayList<>(stored.size());
        for (Deployment d : stored) {
            if (!isConfigured(d.id()) && indexOf(next, d.id()) < 0) {
                next.add(d);
            }
        }
        if (!next.equals(added)) {
            swap(next);
        }
    }

    private void swap(List<Deployment> nextAdded) {
        List<Deployment> all = new ArrayList<>(configured.size() + nextAdded.size());
        all.addAll(configured);
        all.addAll(nextAdded);
        added = List.copyOf(nextAdded);
        deployments = List.copyOf(all);
        current = ModelGroups.of(deployments);
        swapped.accept(deployments);
    }

    private static int indexOf(List<Deployment> list, String id) {
        for (int i = 0; i < list.size(); i++) {
            if (list.get(i).id().equals(id)) {
                return i;
            }
        }
        return -1;
    }
}
