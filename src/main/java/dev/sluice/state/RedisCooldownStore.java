package dev.sluice.state;

import dev.sluice.failure.FailureClass;
import dev.sluice.router.signals.CooldownStore;
import dev.sluice.router.signals.InMemoryCooldownStore;
import dev.sluice.store.redis.RedisLink;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The cooldown store of a gateway whose replicas share one Redis: every replica answers from
 * a local {@link InMemoryCooldownStore}, and Redis carries benches and failure counts between
 * them.
 *
 * <h2>Design notes</h2>
 * <b>Reads are local.</b> The store is asked on event loops and must answer at once, so
 * {@link #benchedUntil} never goes to Redis. Benches reach the local store three ways: made
 * here; pushed by another replica on the channel {@code <prefix>cooldown:events} (within
 * milliseconds); read from the sorted set {@code <prefix>cooldown:benches} (member: deployment
 * id, score: bench end in epoch milliseconds) each time the link comes up, after it has
 * subscribed, so a bench made while this replica was away is not missed.
 *
 * <p><b>Writes go to both.</b> A bench is applied locally, then one script keeps the later of
 * the two ends in the sorted set, forgets the deployment's shared failure counts (benching
 * forgets counts, as locally) and publishes the bench. A bench made while Redis is down is
 * kept aside and written when the link comes back, if it still holds.
 *
 * <p><b>Failure counts</b> are one Redis counter per deployment and failure class,
 * {@code <prefix>cooldown:fails:<id>:<CLASS>}, incremented atomically and expiring one window
 * after the failure that created it, so the window is shared too. {@code countFailure} must
 * answer before Redis does, so it answers the larger of this replica's own count and the last
 * shared total it heard for that counter (still in its window) plus this failure: never more
 * than the true total, and equal to it when one replica sees every failure. When the
 * counter's reply arrives and the shared total is over the allowance while the answer was
 * not, the store runs the caller's {@code crossedLater}, which benches through the same path
 * as any other bench. So a bench trips on the same total whichever replicas saw the
 * failures; the trade-off is that the request whose failure crossed the line on another
 * replica's count learns it one Redis round trip late (its own attempt has already failed
 * over), and that a failure counted while Redis was down is never added to the shared
 * counter. While Redis is down every replica counts and benches on its own, as without Redis.
 *
 * <p>Bench ends are instants of the caller's clock; replicas are assumed to keep their clocks
 * in step (NTP), as a bench end written by one is read by another. The store reads the
 * injected clock only to set key expiry and to skip benches that have already ended.
 */
public final class RedisCooldownStore implements CooldownStore {

    /** Keeps the later bench end, forgets shared counts, publishes the end that holds. */
    private static final String BENCH_SCRIPT = """
            redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[3])
            redis.call('ZADD', KEYS[1], 'GT', ARGV[2], ARGV[1])
            local ends = redis.call('ZSCORE', KEYS[1], ARGV[1])
            local ttl = tonumber(ends) - tonumber(ARGV[3])
            if ttl > 0 and redis.call('PTTL', KEYS[1]) < ttl then redis.call('PEXPIRE', KEYS[1], ttl) end
            for i = 2, #KEYS do redis.call('DEL', KEYS[i]) end
            redis.call('PUBLISH', ARGV[4], 'bench ' .. ends .. ' ' .. ARGV[1])
            return ends
            """;

    /** One failure more in the shared window: the total and the window's time left. */
    private static final String COUNT_SCRIPT = """
            local n = redis.call('INCR', KEYS[1])
            if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
            return {n, redis.call('PTTL', KEYS[1])}
            """;

    private static final String CLEAR_SCRIPT = """
            redis.call('ZREM', KEYS[1], ARGV[1])
            for i = 2, #KEYS do redis.call('DEL', KEYS[i]) end
            redis.call('PUBLISH', ARGV[2], 'clear ' .. ARGV[1])
            return 1
            """;

    /** The benches still in force, as a flat list of id, end, id, end, ... */
    private static final String READ_SCRIPT = """
            return redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. ARGV[1], '+inf', 'WITHSCORES')
            """;

    private record CountKey(String deploymentId, FailureClass kind) {}

    /** The last shared total heard for one counter, and when its window ends. */
    private record Heard(int total, Instant windowEnd) {}

    private final InMemoryCooldownStore local = new InMemoryCooldownStore();
    private final RedisLink link;
    private final Clock clock;
    private final String benchesKey;
    private final String channel;
    private final ConcurrentMap<CountKey, Heard> heard = new ConcurrentHashMap<>();
    /** Benches made while Redis was down, to write when it is back. */
    private final ConcurrentMap<String, Instant> unshared = new ConcurrentHashMap<>();

    /** Registers on {@code link}; create it before the link starts. */
    public RedisCooldownStore(RedisLink link, Clock clock) {
        this.link = link;
        this.clock = clock;
        this.benchesKey = link.prefix() + "cooldown:benches";
        this.channel = link.prefix() + "cooldown:events";
        link.subscribe(channel, this::onMessage);
        link.onUp(this::catchUp);
    }

    @Override
    public int countFailure(String deploymentId, FailureClass kind, Instant now, Duration window) {
        return countFailure(deploymentId, kind, now, window, Integer.MAX_VALUE, () -> {});
    }

    @Override
    public int countFailure(String deploymentId, FailureClass kind, Instant now, Duration window, int allowed,
            Runnable crossedLater) {
        int own = local.countFailure(deploymentId, kind, now, window);
        CountKey key = new CountKey(deploymentId, kind);
        Heard last = heard.get(key);
        int sharedSoFar = last != null && now.isBefore(last.windowEnd()) ? last.total() + 1 : 0;
        int answer = Math.max(own, sharedSoFar);
        link.send(Request.cmd(Command.EVAL).arg(COUNT_SCRIPT).arg(1).arg(countKey(deploymentId, kind))
                        .arg(Math.max(1, window.toMillis())))
                .onSuccess(reply -> {
                    int total = reply.get(0).toInteger();
                    long left = reply.get(1).toLong();
                    heard.put(key, new Heard(total, clock.instant().plusMillis(Math.max(0, left))));
                    if (answer <= allowed && total > allowed) {
                        crossedLater.run();
                    }
                });
        return answer;
    }

    @Override
    public void bench(String deploymentId, Instant until) {
        local.bench(deploymentId, until);
        forgetHeard(deploymentId);
        share(deploymentId, until);
    }

    @Override
    public Optional<Instant> benchedUntil(String deploymentId, Instant now) {
        return local.benchedUntil(deploymentId, now);
    }

    /** Counting here, or in the shared total last heard for a window still open. */
    @Override
    public boolean counting(String deploymentId, Instant now, Duration window) {
        if (local.counting(deploymentId, now, window)) {
            return true;
        }
        for (FailureClass kind : FailureClass.values()) {
            Heard last = heard.get(new CountKey(deploymentId, kind));
            if (last != null && last.total() > 0 && now.isBefore(last.windowEnd())) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void clear(String deploymentId) {
        local.clear(deploymentId);
        forgetHeard(deploymentId);
        unshared.remove(deploymentId);
        Request clear = Request.cmd(Command.EVAL).arg(CLEAR_SCRIPT).arg(1 + FailureClass.values().length).arg(benchesKey);
        countKeys(deploymentId, clear);
        link.send(clear.arg(deploymentId).arg(channel));
    }

    private void share(String deploymentId, Instant until) {
        Request bench = Request.cmd(Command.EVAL).arg(BENCH_SCRIPT).arg(1 + FailureClass.values().length).arg(benchesKey);
        countKeys(deploymentId, bench);
        bench.arg(deploymentId).arg(until.toEpochMilli()).arg(clock.instant().toEpochMilli()).arg(channel);
        link.send(bench)
                .onSuccess(written -> unshared.remove(deploymentId, until))
                .onFailure(e -> unshared.merge(deploymentId, until, RedisCooldownStore::later));
    }

    /** On the link's event loop, each time it comes up: take in the benches in force, then write ours. */
    private void catchUp() {
        Instant now = clock.instant();
        link.send(Request.cmd(Command.EVAL).arg(READ_SCRIPT).arg(1).arg(benchesKey).arg(now.toEpochMilli()))
                .onSuccess(this::applyAll);
        for (Map.Entry<String, Instant> bench : unshared.entrySet()) {
            if (bench.getValue().isAfter(now)) {
                share(bench.getKey(), bench.getValue());
            } else {
                unshared.remove(bench.getKey(), bench.getValue());
            }
        }
    }

    private void applyAll(Response benches) {
        for (int i = 0; i + 1 < benches.size(); i += 2) {
            applyBench(benches.get(i).toString(), benches.get(i + 1).toString());
        }
    }

    /** {@code bench <end ms> <id>} or {@code clear <id>}, from any replica, this one included. */
    private void onMessage(String message) {
        if (message.startsWith("bench ")) {
            int space = message.indexOf(' ', "bench ".length());
            if (space > 0) {
                applyBench(message.substring(space + 1), message.substring("bench ".length(), space));
            }
        } else if (message.startsWith("clear ")) {
            String deploymentId = message.substring("clear ".length());
            local.clear(deploymentId);
            forgetHeard(deploymentId);
        }
    }

    private void applyBench(String deploymentId, String endMillis) {
        // Redis writes sorted-set scores as doubles; bench ends are whole milliseconds.
        Instant until = Instant.ofEpochMilli((long) Double.parseDouble(endMillis));
        if (!until.isAfter(clock.instant())) {
            return;
        }
        Optional<Instant> current = local.benchedUntil(deploymentId, clock.instant());
        if (current.isPresent() && !until.isAfter(current.get())) {
            return;
        }
        local.bench(deploymentId, until);
        forgetHeard(deploymentId);
    }

    private void forgetHeard(String deploymentId) {
        for (FailureClass kind : FailureClass.values()) {
            heard.remove(new CountKey(deploymentId, kind));
        }
    }

    private String countKey(String deploymentId, FailureClass kind) {
        return link.prefix() + "cooldown:fails:" + deploymentId + ":" + kind.name();
    }

    private void countKeys(String deploymentId, Request request) {
        for (FailureClass kind : FailureClass.values()) {
            request.arg(countKey(deploymentId, kind));
        }
    }

    private static Instant later(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }
}
