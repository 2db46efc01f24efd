package dev.sluice.state;

import dev.sluice.router.signals.CachePins;
import dev.sluice.router.signals.InMemoryCachePins;
import dev.sluice.store.redis.RedisLink;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/**
 * The prompt-cache pins of a gateway whose replicas share one Redis: every replica answers
 * from a local {@link InMemoryCachePins}, and Redis carries pins between them, so a
 * conversation whose next turn reaches another replica still goes back to the deployment
 * whose cache is warm.
 *
 * <h2>Design notes</h2>
 * <b>Reads are local.</b> {@link #pinned} is asked on event loops for every request that has
 * a cacheable prefix and answers from the local store at once. Pins reach it three ways: made
 * here; pushed by another replica on the channel {@code <prefix>pins:events} (within
 * milliseconds); or fetched after a miss. A miss sends one GET for {@code <prefix>pins:<key>}
 * and, when Redis holds a pin this replica has not heard of (made while it was away, or
 * before it started), fills the local store with it: that request is routed without the pin,
 * the next turn with it. Nothing is read in bulk when the link comes up, since pins are many,
 * short-lived and only wanted for conversations that come back.
 *
 * <p><b>Writes go to both.</b> A pin is applied locally, then one script sets
 * {@code <prefix>pins:<key>} to {@code <end ms> <deployment id>}, expiring when the pin ends,
 * and publishes it. A pin made while Redis is down stays on this replica; it is not written
 * later, as the next turn through this replica renews it anyway.
 *
 * <p>Each store has an id of its own that tags what it publishes, so it skips its own
 * messages. Pin ends are instants of the caller's clock; replicas are assumed to keep their
 * clocks in step (NTP).
 */
public final class RedisCachePins implements CachePins {

    /** Sets the pin with its expiry and tells the other replicas. */
    private static final String PIN_SCRIPT = """
            redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
            redis.call('PUBLISH', ARGV[3], ARGV[4])
            return 1
            """;

    private final InMemoryCachePins local = new InMemoryCachePins();
    private final RedisLink link;
    private final Clock clock;
    private final String channel;
    private final String origin = UUID.randomUUID().toString();

    /** Registers on {@code link}; create it before the link starts. */
    public RedisCachePins(RedisLink link, Clock clock) {
        this.link = link;
        this.clock = clock;
        this.channel = link.prefix() + "pins:events";
        link.subscribe(channel, this::onMessage);
    }

    @Override
    public void pin(String prefixKey, String deploymentId, Instant until) {
        local.pin(prefixKey, deploymentId, until);
        long endMillis = until.toEpochMilli();
        long ttl = endMillis - clock.millis();
        if (ttl <= 0) {
            return;
        }
        // <origin> <end ms> <id length> <deployment id><prefix key>: either may hold spaces.
        String message = origin + " " + endMillis + " " + deploymentId.length() + " " + deploymentId + prefixKey;
        link.send(Request.cmd(Command.EVAL).arg(PIN_SCRIPT).arg(1).arg(pinKey(prefixKey))
                .arg(endMillis + " " + deploymentId).arg(ttl).arg(channel).arg(message));
    }

    @Override
    public Optional<String> pinned(String prefixKey, Instant now) {
        Optional<String> pinned = local.pinned(prefixKey, now);
        if (pinned.isEmpty()) {
            link.send(Request.cmd(Command.GET).arg(pinKey(prefixKey))).onSuccess(value -> fill(prefixKey, value));
        }
        return pinned;
    }

    /** A pin read from Redis after a miss: kept unless a pin arrived meanwhile. */
    private void fill(String prefixKey, Response value) {
        if (value == null) {
            return;
        }
        String text = value.toString();
        int space = text.indexOf(' ');
        if (space < 0) {
            return;
        }
        Instant until = Instant.ofEpochMilli(Long.parseLong(text.substring(0, space)));
        Instant now = clock.instant();
        if (until.isAfter(now) && local.pinned(prefixKey, now).isEmpty()) {
            local.pin(prefixKey, text.substring(space + 1), until);
        }
    }

    /** {@code <origin> <end ms> <id length> <deployment id><prefix key>}, from any replica, this one included. */
    private void onMessage(String message) {
        String[] head = message.split(" ", 4);
        if (head.length < 4 || head[0].equals(origin)) {
            return;
        }
        Instant until = Instant.ofEpochMilli(Long.parseLong(head[1]));
        int idLength = Integer.parseInt(head[2]);
        if (idLength > head[3].length() || !until.isAfter(clock.instant())) {
            return;
        }
        local.pin(head[3].substring(idLength), head[3].substring(0, idLength), until);
    }

    private String pinKey(String prefixKey) {
        return link.prefix() + "pins:" + prefixKey;
    }
}
