package dev.sluice.router.strategy;

import dev.sluice.config.Deployment;
import dev.sluice.router.signals.UsageWindows;
import dev.sluice.router.strategy.CapacityCheck.Fit;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * {@code usage-based-routing} and {@code usage-based-routing-v2}: among the deployments with
 * room for the request under their {@code tpm}/{@code rpm} this minute (see
 * {@link CapacityCheck}), the one that has used the fewest tokens this minute, ties at random.
 * When none has room, a {@link Pick.NoCapacity} names each one's usage and limit.
 *
 * <p>The two names behave the same here. In LiteLLM, v2 differs from v1 in how it stores
 * its counts (per deployment rather than per group, so replicas can share them in Redis),
 * in counting a request when it is sent rather than when it succeeds, and in breaking ties
 * at random rather than by list order. Sluice's stores are per deployment already, the
 * {@link SignalRecorder} counts a request when its attempt starts, and ties are random for
 * both names, so v2's behaviour is what either name gets.
 */
public final class UsageBasedStrategy extends WithinLimitsStrategy {
    public static final String NAME = "usage-based-routing";
    public static final String NAME_V2 = "usage-based-routing-v2";

    /** @param name {@link #NAME} or {@link #NAME_V2} */
    public UsageBasedStrategy(String name, UsageWindows usage, Clock clock, RandomGenerator random) {
        super(checked(name), usage, clock, random);
    }

    private static String checked(String name) {
        if (!name.equals(NAME) && !name.equals(NAME_V2)) {
            throw new IllegalArgumentException("name: '" + name + "' (expected: " + NAME + " or " + NAME_V2 + ")");
        }
        return name;
    }

    /** The one that has used the fewest tokens this minute. */
    @Override
    Deployment choose(List<Fit> fits, RequestFacts request, Instant now) {
        double[] tokens = new double[fits.size()];
        for (int i = 0; i < tokens.length; i++) {
            tokens[i] = fits.get(i).used().tokens();
        }
        return fits.get(LowestScore.pick(tokens, 0, random)).deployment();
    }
}
