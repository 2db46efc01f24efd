package dev.sluice.state;

import dev.sluice.router.signals.InFlightCounts;
import dev.sluice.router.signals.InMemoryInFlightCounts;
import dev.sluice.store.redis.RedisLink;
import dev.sluice.time.PeriodicJob;
import dev.sluice.time.Scheduler;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The in-flight counts of a gateway whose replicas share one Redis: each replica counts its
 * own calls locally and announces them, and {@link #count} adds the other replicas' latest
 * announced counts, so {@code least-busy} sees a deployment busy with streams opened on any
 * replica.
 *
 * <h2>Design notes</h2>
 * <b>Counts are leased, not stored.</b> Each replica owns its counts; nothing is kept in Redis.
 * When its count of a deployment changes, a replica publishes {@code <origin> <count>
 * <deployment id>} on {@code <prefix>inflight:events}; changes within {@link #COALESCE} of the
 * first are folded into one message carrying the count at the time it is sent. Every
 * {@link #DEFAULT_HEARTBEAT} it also republishes all its non-zero counts. A replica keeps,
 * per deployment and per other replica, the latest count and the time (its own clock) it
 * arrived; a count counts while it is younger than the lease ({@link #DEFAULT_LEASE}). A
 * replica that crashes, or is cut off from Redis, stops renewing its counts and they lapse
 * on their own; no one has to clean up after it, and replica clocks need not agree.
 *
 * <p><b>Reads are local and exact for this replica.</b> {@link #count} runs for every
 * candidate of every least-busy pick; it reads this replica's counter and a small map, never
 * Redis. The other replicas' part is up to one round trip plus {@link #COALESCE} behind, and
 * a lost message (Redis flapping) is corrected by the next heartbeat. A replica gone without
 * a word still counts for up to a lease: its deployments look busier than they are, which
 * only shifts traffic to their siblings for that long.
 *
 * <p><b>Redis down.</b> Announcements fail at once and are dropped; while the link is down,
 * {@link #count} answers with this replica's own counts alone, as without Redis. When the
 * link comes back, this replica announces its counts at once rather than at the next beat.
 *
 * <p>Announcements are sent by one job of the gateway's scheduler, {@code inflight-announcer}, so
 * request threads only mark a deployment as changed and ask it to announce. {@link #close} stops it.
 */
public final class RedisInFlightCounts implements InFlightCounts, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger("dev.sluice.state");

    /** How often every non-zero count is announced again. */
    public static final Duration DEFAULT_HEARTBEAT = Duration.ofSeconds(1);
    /** How long an announced count is believed without being renewed. */
    public static final Duration DEFAULT_LEASE = Duration.ofSeconds(3);
    /** Changes this close together go out as one message. */
    static final Duration COALESCE = Duration.ofMillis(5);

    private final InMemoryInFlightCounts local = new InMemoryInFlightCounts();
    private final RedisLink link;
    private final Clock clock;
    private final long leaseMillis;
    private final String channel;
    private final String origin = UUID.randomUUID().toString();
    /** Deployment id → other replica's origin → its latest count. */
    private final ConcurrentMap<String, ConcurrentMap<String, Announced>> others = new ConcurrentHashMap<>();
    /** Deployments whose count changed since it was last announced. */
    private final Set<String> changed = ConcurrentHashMap.newKeySet();
    /** The link came back: every count is announced at once. */
    private volatile boolean announceAllDue;
    private final Scheduler jobs;
    private final PeriodicJob announcer;

    /**
     * Registers on {@code link}; create it before the link starts. Counts are dated on
     * {@code clock} and announced as the job {@code inflight-announcer} of {@code jobs}, on its time.
     */
    public RedisInFlightCounts(RedisLink link, Clock clock, Scheduler jobs) {
        this(link, clock, jobs, DEFAULT_HEARTBEAT, DEFAULT_LEASE);
    }

    RedisInFlightCounts(RedisLink link, Clock clock, Scheduler jobs, Duration heartbeat, Duration lease) {
        if (!lease.minus(heartbeat).isPositive()) {
            throw new IllegalArgumentException("lease: " + lease + " (expected: longer than the heartbeat, " + heartbeat + ")");
        }
        this.link = link;
        this.clock = clock;
        this.leaseMillis = lease.toMillis();
        this.channel = link.prefix() + "inflight:events";
        this.jobs = jobs;
        this.announcer = jobs.periodic("inflight-announcer", heartbeat, this::heartbeat, this::announceAsked);
        link.subscribe(channel, this::onMessage);
        link.onUp(() -> {
            announceAllDue = true;
            announcer.ask();
        });
    }

    @Override
    public void started(String deploymentId) {
        local.started(deploymentId);
        announceSoon(deploymentId);
    }

    @Override
    public void ended(String deploymentId) {
        local.ended(deploymentId);
        announceSoon(deploymentId);
    }

    @Override
    public int count(String deploymentId) {
        int count = local.count(deploymentId);
        Map<String, Announced> byReplica = others.get(deploymentId);
        if (byReplica == null || !link.isUp()) {
            return count;
        }
        long now = clock.millis();
        for (Announced announced : byReplica.values()) {
            if (now - announced.atMillis < leaseMillis) {
                count += announced.count;
            }
        }
        return count;
    }

    /** The first change since the last announcement asks for one; later ones ride along. */
    private void announceSoon(String deploymentId) {
        if (changed.add(deploymentId)) {
            announcer.ask();
        }
    }

    /** What was asked for: every count after the link came back; the changed ones, {@link #COALESCE} after the first change. */
    private void announceAsked() throws InterruptedException {
        if (announceAllDue) {
            announceAllDue = false;
            announceAll();
        }
        if (!changed.isEmpty()) {
            jobs.sleep(COALESCE);
            announceChanged();
        }
    }

    private void announceChanged() {
        for (String deploymentId : changed) {
            // Removed before the count is read: a change after this point schedules its own message.
            changed.remove(deploymentId);
            announce(deploymentId, local.count(deploymentId));
        }
    }

    private void heartbeat() {
        try {
            announceAll();
            forgetLapsed();
        } catch (RuntimeException e) {
            log.warn("inflight.heartbeat_failed reason={}; the next beat tries anew", e.toString());
        }
    }

    private void announceAll() {
        local.nonZero().forEach(this::announce);
    }

    private void announce(String deploymentId, int count) {
        // <origin> <count> <deployment id>: the id last, as it may hold spaces.
        link.send(Request.cmd(Command.PUBLISH).arg(channel).arg(origin + " " + count + " " + deploymentId));
    }

    /** Drops counts whose lease has run out, so replicas long gone leave nothing behind. */
    private void forgetLapsed() {
        long now = clock.millis();
        for (String deploymentId : others.keySet()) {
            others.computeIfPresent(deploymentId, (id, byReplica) -> {
                byReplica.values().removeIf(announced -> now - announced.atMillis >= leaseMillis);
                return byReplica.isEmpty() ? null : byReplica;
            });
        }
    }

    /** A count from any replica, this one included; runs on the link's event loop. */
    private void onMessage(String message) {
        String[] parts = message.split(" ", 3);
        if (parts.length < 3 || parts[0].equals(origin)) {
            return;
        }
        int count = Integer.parseInt(parts[1]);
        if (count <= 0) {
            others.computeIfPresent(parts[2], (id, byReplica) -> {
                byReplica.remove(parts[0]);
                return byReplica.isEmpty() ? null : byReplica;
            });
            return;
        }
        Announced announced = new Announced(count, clock.millis());
        others.compute(parts[2], (id, byReplica) -> {
            ConcurrentMap<String, Announced> map = byReplica == null ? new ConcurrentHashMap<>() : byReplica;
            map.put(parts[0], announced);
            return map;
        });
    }

    /** Stops announcing and joins the announcer; the other replicas forget this one's counts when their leases run out. */
    @Override
    public void close() {
        announcer.close();
    }

    private record Announced(int count, long atMillis) {
    }
}
