package dev.sluice.state.redis;

import dev.sluice.state.InMemoryLatencySamples;
import dev.sluice.state.LatencySamples;
import dev.sluice.state.LatencySeries;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.OptionalDouble;
import java.util.UUID;

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
 * samples. Nothing is kept in Redis: samples are only worth their ttl, and a replica that
 * starts, or comes back after an outage, learns from the next ones. Samples taken while
 * Redis is down stay on the replica that took them.
 *
 * <p>Each store has an id of its own that tags what it publishes, so it skips its own
 * messages rather than adding its samples twice.
 */
public final class RedisLatencySamples implements LatencySamples {

    private final InMemoryLatencySamples local = new InMemoryLatencySamples();
    private final RedisLink link;
    private final String channel;
    private final String origin = UUID.randomUUID().toString();

    /** Registers on {@code link}; create it before the link starts. */
    public RedisLatencySamples(RedisLink link) {
        this.link = link;
        this.channel = link.prefix() + "latency:events";
        link.subscribe(channel, this::onMessage);
    }

    @Override
    public void add(String deploymentId, LatencySeries series, Instant at, double seconds, int maxSamples) {
        local.add(deploymentId, series, at, seconds, maxSamples);
        // <origin> <series> <at> <seconds> <max samples> <deployment id>: the id last, as it may hold spaces.
        String message = origin + " " + series.name() + " " + at + " " + seconds + " " + maxSamples + " " + deploymentId;
        link.send(Request.cmd(Command.PUBLISH).arg(channel).arg(message));
    }

    @Override
    public List<Double> recent(String deploymentId, LatencySeries series, Instant now, Duration ttl) {
        return local.recent(deploymentId, series, now, ttl);
    }

    @Override
    public OptionalDouble average(String deploymentId, LatencySeries series, Instant now, Duration ttl) {
        return local.average(deploymentId, series, now, ttl);
    }

    /** A sample from any replica, this one included. */
    private void onMessage(String message) {
        String[] parts = message.split(" ", 6);
        if (parts.length < 6 || parts[0].equals(origin)) {
            return;
        }
        local.add(parts[5], LatencySeries.valueOf(parts[1]), Instant.parse(parts[2]), Double.parseDouble(parts[3]),
                Integer.parseInt(parts[4]));
    }
}
