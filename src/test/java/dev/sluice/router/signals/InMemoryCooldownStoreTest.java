package dev.sluice.router.signals;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.failure.FailureClass;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class InMemoryCooldownStoreTest {
    static final Instant T0 = Instant.parse("2025-01-01T00:00:00Z");
    static final Duration WINDOW = Duration.ofSeconds(60);
    static final Duration MS = Duration.ofMillis(1);

    final InMemoryCooldownStore store = new InMemoryCooldownStore();

    private int count(String id, FailureClass kind, Instant at) {
        return store.countFailure(id, kind, at, WINDOW);
    }

    @Test
    void failuresInOneWindowAddUp() {
        assertThat(count("a", FailureClass.SERVER, T0)).isEqualTo(1);
        assertThat(count("a", FailureClass.SERVER, T0.plusSeconds(10))).isEqualTo(2);
        assertThat(count("a", FailureClass.SERVER, T0.plusSeconds(20))).isEqualTo(3);
    }

    @Test
    void aFailureJustBeforeTheWindowEndsCountsInIt() {
        count("a", FailureClass.SERVER, T0);

        assertThat(count("a", FailureClass.SERVER, T0.plus(WINDOW).minus(MS))).isEqualTo(2);
    }

    @Test
    void aFailureAtTheWindowEndOpensANewWindow() {
        count("a", FailureClass.SERVER, T0);
        count("a", FailureClass.SERVER, T0.plusSeconds(30));

        assertThat(count("a", FailureClass.SERVER, T0.plus(WINDOW))).isEqualTo(1);
    }

    @Test
    void theNewWindowIsMeasuredFromItsOwnFirstFailure() {
        count("a", FailureClass.SERVER, T0);
        Instant second = T0.plusSeconds(90);
        count("a", FailureClass.SERVER, second);

        assertThat(count("a", FailureClass.SERVER, second.plus(WINDOW).minus(MS))).isEqualTo(2);
        assertThat(count("a", FailureClass.SERVER, second.plus(WINDOW))).isEqualTo(1);
    }

    @Test
    void countsAreKeptPerDeploymentAndPerClass() {
        count("a", FailureClass.SERVER, T0);
        count("a", FailureClass.SERVER, T0);
        count("a", FailureClass.TIMEOUT, T0);

        assertThat(count("a", FailureClass.SERVER, T0)).isEqualTo(3);
        assertThat(count("a", FailureClass.TIMEOUT, T0)).isEqualTo(2);
        assertThat(count("b", FailureClass.SERVER, T0)).isEqualTo(1);
    }

    @Test
    void aBenchHoldsUntilOneMillisecondBeforeItsEnd() {
        Instant end = T0.plusSeconds(5);
        store.bench("a", end);

        assertThat(store.benchedUntil("a", T0)).contains(end);
        assertThat(store.benchedUntil("a", end.minus(MS))).contains(end);
    }

    @Test
    void aBenchLapsesExactlyAtItsEnd() {
        Instant end = T0.plusSeconds(5);
        store.bench("a", end);

        assertThat(store.benchedUntil("a", end)).isEmpty();
        assertThat(store.benchedUntil("a", end.plus(MS))).isEmpty();
    }

    @Test
    void aLapsedBenchIsRemovedWhenRead() {
        Instant end = T0.plusSeconds(5);
        store.bench("a", end);
        store.benchedUntil("a", end);

        // Asking again for a moment before the end would find the bench had it been kept.
        assertThat(store.benchedUntil("a", end.minus(MS))).isEmpty();
    }

    @Test
    void aBenchStillRunningIsKeptWhenRead() {
        Instant end = T0.plusSeconds(5);
        store.bench("a", end);
        store.benchedUntil("a", end.minus(MS));

        assertThat(store.benchedUntil("a", T0)).contains(end);
    }

    @Test
    void aSecondBenchKeepsTheLaterEnd() {
        store.bench("a", T0.plusSeconds(10));
        store.bench("a", T0.plusSeconds(5));
        store.bench("b", T0.plusSeconds(5));
        store.bench("b", T0.plusSeconds(10));

        assertThat(store.benchedUntil("a", T0)).contains(T0.plusSeconds(10));
        assertThat(store.benchedUntil("b", T0)).contains(T0.plusSeconds(10));
    }

    @Test
    void benchesAreKeptPerDeployment() {
        store.bench("a", T0.plusSeconds(5));

        assertThat(store.benchedUntil("b", T0)).isEmpty();
    }

    @Test
    void benchingForgetsThatDeploymentsCountsOnly() {
        count("a", FailureClass.SERVER, T0);
        count("a", FailureClass.TIMEOUT, T0);
        count("b", FailureClass.SERVER, T0);

        store.bench("a", T0.plusSeconds(5));

        assertThat(count("a", FailureClass.SERVER, T0)).isEqualTo(1);
        assertThat(count("a", FailureClass.TIMEOUT, T0)).isEqualTo(1);
        assertThat(count("b", FailureClass.SERVER, T0)).isEqualTo(2);
    }

    @Test
    void clearForgetsTheBenchAndTheCounts() {
        count("a", FailureClass.SERVER, T0);
        store.bench("a", T0.plusSeconds(5));
        count("a", FailureClass.SERVER, T0);

        store.clear("a");

        assertThat(store.benchedUntil("a", T0)).isEmpty();
        assertThat(count("a", FailureClass.SERVER, T0)).isEqualTo(1);
    }

    @Test
    void failuresCountedFromManyThreadsAddUp() throws Exception {
        int threads = 8;
        int perThread = 10_000;
        Set<Integer> returned = ConcurrentHashMap.newKeySet();
        runTogether(threads, () -> {
            for (int i = 0; i < perThread; i++) {
                returned.add(store.countFailure("a", FailureClass.SERVER, T0, WINDOW));
            }
        });

        // Each count was handed out exactly once, and none was lost.
        assertThat(returned).hasSize(threads * perThread);
        assertThat(count("a", FailureClass.SERVER, T0)).isEqualTo(threads * perThread + 1);
    }

    @Test
    void benchesFromManyThreadsKeepTheLatestEnd() throws Exception {
        int threads = 8;
        int perThread = 1_000;
        runTogether(threads, () -> {
            for (int i = 1; i <= perThread; i++) {
                store.bench("a", T0.plusMillis(i));
            }
        });

        assertThat(store.benchedUntil("a", T0)).contains(T0.plusMillis(perThread));
    }

    private static void runTogether(int threads, Runnable task) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                done.add(pool.submit(() -> {
                    start.await();
                    task.run();
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : done) {
                f.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
