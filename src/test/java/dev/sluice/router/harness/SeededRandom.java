package dev.sluice.router.harness;

import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.random.RandomGenerator;

/**
 * The router's randomness in a test: {@link Random} with a fixed seed, so the same draws come
 * out every run, and a record of each bounded draw the router made ({@code nextLong(501)=117}),
 * so a test can assert which bound was asked for as well as what came out. A twin
 * {@code new Random(seed)} asked for the same bounds in the same order gives the same values.
 */
public final class SeededRandom implements RandomGenerator {
    private final Random random;
    private final List<String> draws = new CopyOnWriteArrayList<>();

    public SeededRandom(long seed) {
        this.random = new Random(seed);
    }

    @Override
    public long nextLong() {
        return random.nextLong();
    }

    @Override
    public long nextLong(long bound) {
        long drawn = random.nextLong(bound);
        draws.add("nextLong(" + bound + ")=" + drawn);
        return drawn;
    }

    @Override
    public int nextInt(int bound) {
        int drawn = random.nextInt(bound);
        draws.add("nextInt(" + bound + ")=" + drawn);
        return drawn;
    }

    @Override
    public double nextDouble() {
        double drawn = random.nextDouble();
        draws.add("nextDouble()=" + drawn);
        return drawn;
    }

    /** Every bounded draw and every double drawn, in order. */
    public List<String> draws() {
        return List.copyOf(draws);
    }
}
