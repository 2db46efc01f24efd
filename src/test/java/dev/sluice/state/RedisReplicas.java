package dev.sluice.state;

import dev.sluice.store.redis.RedisLink;
import dev.sluice.testing.TestRedis;
import dev.sluice.time.Scheduler;
import dev.sluice.time.TimeSource;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Links to one Redis standing for replicas of one gateway, under a key prefix of their own:
 * a test builds its stores on them and {@link #close}s them after, which closes everything
 * opened, newest first, stops the stores' background jobs and deletes the prefix's keys.
 */
final class RedisReplicas implements AutoCloseable {
    /** Each link's budget for one Redis call: roomier than production's, for a busy test machine. */
    static final Duration BUDGET = Duration.ofMillis(200);
    /** How often each link tells the others it is alive: quicker than production's, so tests see each other soon. */
    static final Duration BEAT_EVERY = Duration.ofMillis(100);

    private final String prefix = TestRedis.newPrefix();
    private final List<AutoCloseable> opened = new ArrayList<>();
    /** Where the stores' background jobs run: on the system's time, as Redis's own expiries do. */
    private final Scheduler jobs = Scheduler.on(TimeSource.system());

    Scheduler jobs() {
        return jobs;
    }

    String prefix() {
        return prefix;
    }

    /** A link to {@code url}, not started: stores register on it before it starts. */
    RedisLink link(String url) {
        return link(url, BEAT_EVERY);
    }

    /** {@link #link(String)}, telling the others it is alive every {@code beatEvery}. */
    RedisLink link(String url, Duration beatEvery) {
        RedisLink link = RedisLink.to(url, prefix, BUDGET, beatEvery, Clock.systemUTC());
        opened.add(link);
        return link;
    }

    /** Builds a store on {@code link}, then starts the link (waiting up to 2 s for Redis). */
    <T> T started(RedisLink link, Function<RedisLink, T> store) {
        T built = store.apply(link);
        if (built instanceof AutoCloseable closeable) {
            opened.add(closeable);
        }
        link.start(Duration.ofSeconds(2));
        return built;
    }

    /** A store on a new link to {@code url}, started. */
    <T> T store(String url, Function<RedisLink, T> store) {
        return started(link(url), store);
    }

    @Override
    public void close() throws Exception {
        for (AutoCloseable closeable : opened.reversed()) {
            closeable.close();
        }
        jobs.close();
        TestRedis.deleteKeys(prefix);
    }
}
