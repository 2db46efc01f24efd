package dev.sluice.router;

import dev.sluice.config.Deployment;
import java.util.List;

/** The deployments that serve one model group, in config order. */
public record ModelGroup(String name, List<Deployment> deployments) {
    public ModelGroup {
        deployments = List.copyOf(deployments);
    }
}
