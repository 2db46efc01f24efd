package dev.sluice.router;

import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;

/**
 * The production random source: each thread draws from its own generator, so routing
 * decisions on different event loops never contend. Tests pass a seeded generator instead.
 */
public final class ThreadLocalRandomSource implements RandomGenerator {
    @Override
    public long nextLong() {
        return ThreadLocalRandom.current().nextLong();
    }

    @Override
    public double nextDouble() {
        return ThreadLocalRandom.current().nextDouble();
    }

    @Override
    public int nextInt(int bound) {
        return ThreadLocalRandom.current().nextInt(bound);
    }
}
