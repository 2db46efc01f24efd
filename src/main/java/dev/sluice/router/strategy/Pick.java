package dev.sluice.router.strategy;

import dev.sluice.config.Deployment;

/** A strategy's answer: a deployment, or why no candidate may take the request now. */
public sealed interface Pick {

    record Chosen(Deployment deployment) implements Pick {}

    /**
     * @param reason names each candidate and why it was passed over, e.g.
     *               {@code deployment 'a' used 9800 of its 10000 tpm this minute}
     */
    record NoCapacity(String reason) implements Pick {}

    static Pick of(Deployment deployment) {
        return new Chosen(deployment);
    }
}
