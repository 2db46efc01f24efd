package dev.sluice.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** Runs one task on several threads released at the same moment, as event loops would call a store. */
public final class Concurrently {
    private Concurrently() {}

    public interface Task {
        void run(int thread) throws Exception;
    }

    /** Runs {@code task} on {@code threads} threads, each given 30 s to finish; rethrows the first failure. */
    public static void run(int threads, Task task) throws Exception {
        run(threads, Duration.ofSeconds(30), task);
    }

    /** As {@link #run(int, Task)}, with {@code timeout} for each thread to finish. */
    public static void run(int threads, Duration timeout, Task task) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    start.await();
                    task.run(thread);
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : done) {
                f.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
