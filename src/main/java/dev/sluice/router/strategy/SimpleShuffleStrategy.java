package dev.sluice.router.strategy;

import dev.sluice.config.Deployment;
import dev.sluice.router.WeightedShuffle;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * {@code simple-shuffle}, LiteLLM's default: a random pick weighted by {@code weight}, else
 * {@code rpm}, else {@code tpm}, else uniform, with weight 0 a backup (see
 * {@link WeightedShuffle}). It reads no live signal, so it never refuses.
 */
public final class SimpleShuffleStrategy implements RoutingStrategy {
    public static final String NAME = "simple-shuffle";

    private final WeightedShuffle shuffle;

    public SimpleShuffleStrategy(RandomGenerator random) {
        this.shuffle = new WeightedShuffle(random);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Pick pick(List<Deployment> candidates, RequestFacts request) {
        return Pick.of(shuffle.pick(candidates));
    }
}
