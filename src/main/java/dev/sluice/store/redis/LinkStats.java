package dev.sluice.store.redis;

import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;

/** The counts behind {@link RedisHealth}: outages, failed calls, local decisions, and when the outage began. */
final class LinkStats {
    private final LongAdder outages = new LongAdder();
    private final LongAdder callFailures = new LongAdder();
    private final LongAdder decidedLocally = new LongAdder();
    /** When the current outage began (epoch ms), or 0 while up. */
    private volatile long downSinceMillis;

    void outageBegan(long nowMillis) {
        outages.increment();
        downSinceMillis = nowMillis;
    }

    void outageEnded() {
        downSinceMillis = 0;
    }

    void callFailed() {
        callFailures.increment();
    }

    void decidedLocally() {
        decidedLocally.increment();
    }

    RedisHealth health(boolean up, int replicasSeen) {
        long since = downSinceMillis;
        return new RedisHealth(up, outages.sum(), callFailures.sum(), decidedLocally.sum(),
                since == 0 ? Optional.empty() : Optional.of(Instant.ofEpochMilli(since)), replicasSeen);
    }
}
