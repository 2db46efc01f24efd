package dev.sluice.state;

import dev.sluice.router.signals.InMemoryLatencySamples;
import dev.sluice.router.signals.LatencySamples;
import dev.sluice.router.signals.LatencySeries;
import dev.sluice.store.redis.FlushSoon;
import dev.sluice.store.redis.RedisLink;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.OptionalDouble;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.LongAdder;

/**
 * The latency samples of a gateway whose replicas share one Redis: every replica answers
 * from a local {@link InMemoryLatencySamples}, and each sample taken on one replica is
 * pushed to all the others, so latency-based routing ranks deployments on every replica's
 * experience rather than its own share of it.
 *
 * <h2>Design notes</h2>
 * <b>Reads are local.</b> {@link #average} is read for every candidate of every
 * latency-based pick and answers from the local store without a Redis call.
 *
 * <p><b>Samples are published, not stored.</b> A sample is added locally, then published on
 * {@code <prefix>latency:events}; every other replica adds it to its own store, under the
 * same bound and with the time it was taken, so all replicas converge on the same recent
 * samples. The samples of a few milliseconds ({@link FlushSoon}) go out as one message, one
 * line each, so a busy replica publishes a few hundred messages a second rather than one per
 * answer. Nothing is kept in Redis: samples are only worth their ttl, and a replica that
 * starts, or comes back after an outage, learns from the next ones. Samples taken while
 * Redis is down stay on the replica that took them.
 *
 * <p>Each store has an id of its own that tags what it publishes, so it skips its own
 * messages rather than adding its samples twice.
 */
public final class RedisLatencySamples implements LatencySamples {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger("dev.sluice.state");

    private final InMemoryLatencySamples local = new InMemoryLatencySamples();
    private final RedisLink link;
    private final String channel;
    private final String origin = UUID.randomUUID().toString();
    private final Queue<String> unsent = new ConcurrentLinkedQueue<>();
    private final FlushSoon publish;
    private final LongAdder received = new LongAdder();
    private volatile boolean unreadableLogged;

    /** Registers on {@code link}; create it before the link starts. */
    public RedisLatencySamples(RedisLink link) {
        this.link = link;
        this.channel = link.prefix() + "latency:events";
        this.publish = new FlushSoon(link, FlushSoon.DEFAULT_DELAY, this::publish);
        link.subscribe(channel, this::onMessage);
    }

    @Override
    public void add(String deploymentId, LatencySeries series, Instant at, double seconds, int maxSamples) {
        local.add(deploymentId, series, at, seconds, maxSamples);
        // <series> <at> <seconds> <max samples> <deployment id>: the id last, as it may hold spaces.
        unsent.add(series.name() + " " + at + " " + seconds + " " + maxSamples + " " + escaped(deploymentId));
        publish.changed();
    }

    /** {@code <origin>} and one line per sample gathered since the last message. */
    private void publish() {
        StringBuilder message = new StringBuilder(origin);
        int samples = 0;
        for (String sample = unsent.poll(); sample != null; sample = unsent.poll()) {
            message.append('\n').append(sample);
            samples++;
        }
        if (samples > 0) {
            link.send(Request.cmd(Command.PUBLISH).arg(channel).arg(message.toString()));
        }
    }

    @Override
    public List<Double> recent(String deploymentId, LatencySeries series, Instant now, Duration ttl) {
        return local.recent(deploymentId, series, now, ttl);
    }

    @Override
    public OptionalDouble average(String deploymentId, LatencySeries series, Instant now, Duration ttl) {
        return local.average(deploymentId, series, now, ttl);
    }

    /** Samples taken in from other replicas since start. */
    public long received() {
        return received.sum();
    }

    /** Samples from any replica, this one included. */
    private void onMessage(String message) {
        String[] lines = message.split("\n");
        if (lines[0].equals(origin)) {
            return;
        }
        for (int i = 1; i < lines.length; i++) {
            String[] parts = lines[i].split(" ", 5);
            try {
                local.add(unescaped(parts[4]), LatencySeries.valueOf(parts[0]), Instant.parse(parts[1]),
                        Double.parseDouble(parts[2]), Integer.parseInt(parts[3]));
                received.increment();
            } catch (RuntimeException e) {
                // One sample this replica cannot read (another version's, say) costs that sample, not the batch.
                if (!unreadableLogged) {
                    log.warn("latency.unreadable_sample line={} reason={}", lines[i], e.toString());
                    unreadableLogged = true;
                }
            }
        }
    }

    /** A deployment id on one line: its {@code %} and line breaks written as {@code %25}, {@code %0A}, {@code %0D}. */
    static String escaped(String id) {
        if (id.indexOf('%') < 0 && id.indexOf('\n') < 0 && id.indexOf('\r') < 0) {
            return id;
        }
        return id.replace("%", "%25").replace("\n", "%0A").replace("\r", "%0D");
    }

    static String unescaped(String line) {
        if (line.indexOf('%') < 0) {
            return line;
        }
        return line.replace("%0A", "\n").replace("%0D", "\r").replace("%25", "%");
    }
}
