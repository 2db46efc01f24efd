package dev.sluice.router;

import dev.sluice.config.Deployment;
import dev.sluice.config.LitellmParams;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * LiteLLM's {@code simple-shuffle}: a random pick in proportion to each deployment's share.
 *
 * <p>The share is {@code weight} when any deployment of the candidates sets one (a
 * deployment without one counts as 1, so leaving it out never starves a deployment);
 * otherwise {@code rpm} when every candidate sets it, then {@code tpm} likewise; otherwise
 * all are equal. A share of 0 marks a backup: it is picked only when every candidate's
 * share is 0.
 */
public final class WeightedShuffle {
    private final RandomGenerator random;

    public WeightedShuffle(RandomGenerator random) {
        this.random = random;
    }

    /** Picks one of {@code candidates}, which must not be empty. */
    public Deployment pick(List<Deployment> candidates) {
        int n = candidates.size();
        if (n == 1) {
            return candidates.get(0);
        }
        return pick(candidates, shares(candidates));
    }

    private Deployment pick(List<Deployment> candidates, double[] shares) {
        int n = candidates.size();
        if (n == 1) {
            return candidates.get(0);
        }
        double total = 0;
        for (double share : shares) {
            total += share;
        }
        if (total <= 0) {
            return candidates.get(random.nextInt(n));
        }
        double point = random.nextDouble() * total;
        for (int i = 0; i < n; i++) {
            point -= shares[i];
            if (point < 0 && shares[i] > 0) {
                return candidates.get(i);
            }
        }
        // Rounding left the point at the very end: take the last positive share.
        for (int i = n - 1; i >= 0; i--) {
            if (shares[i] > 0) {
                return candidates.get(i);
            }
        }
        throw new AssertionError("a positive total has a positive share");
    }

    /**
     * Picks one of {@code candidates} by a caller's own weights: a listed deployment by its
     * weight, an unlisted one as a backup (share 0). Without any candidate listed, as
     * {@link #pick(List)}.
     */
    public Deployment pick(List<Deployment> candidates, java.util.Map<String, Double> weights) {
        if (weights.isEmpty() || candidates.stream().noneMatch(d -> weights.containsKey(d.id()))) {
            return pick(candidates);
        }
        double[] shares = new double[candidates.size()];
        for (int i = 0; i < shares.length; i++) {
            shares[i] = weights.getOrDefault(candidates.get(i).id(), 0.0);
        }
        return pick(candidates, shares);
    }

    static double[] shares(List<Deployment> candidates) {
        int n = candidates.size();
        double[] shares = new double[n];
        boolean anyWeight = false;
        boolean allRpm = true;
        boolean allTpm = true;
        for (Deployment d : candidates) {
            LitellmParams p = d.params();
            anyWeight |= p.weight().isPresent();
            allRpm &= p.capacity().rpm().isPresent();
            allTpm &= p.capacity().tpm().isPresent();
        }
        for (int i = 0; i < n; i++) {
            LitellmParams p = candidates.get(i).params();
            if (anyWeight) {
                shares[i] = p.weight().orElse(1.0);
            } else if (allRpm) {
                shares[i] = p.capacity().rpm().getAsInt();
            } else if (allTpm) {
                shares[i] = p.capacity().tpm().getAsInt();
            } else {
                shares[i] = 1.0;
            }
        }
        return shares;
    }
}
