package dev.sluice.accounts;

import dev.sluice.store.redis.RedisLink;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link KeyCopies} in Redis: {@code <prefix>key_copies:<SHA-256 of the key>} holds the key's
 * settings as JSON ({@link KeyCopyCodec}) and expires {@code lifetime} after it was last
 * written. The Redis key is the hash the store already keys by: the key itself is never
 * written anywhere. Every call is bounded by the link's call budget, and fails at once while
 * Redis is down.
 */
public final class RedisKeyCopies implements KeyCopies {
    private static final Logger log = LoggerFactory.getLogger(RedisKeyCopies.class);
    /** Longest a blocking read waits beyond the link's own budget (which fails it first). */
    private static final long READ_WAIT_MS = 1_000;

    private final RedisLink link;
    private final long lifetimeMillis;
    /** Copies that should be gone but Redis did not answer the DEL: dropped again as soon as it is back. */
    private final Set<String> dropsOwed = ConcurrentHashMap.newKeySet();

    public RedisKeyCopies(RedisLink link, Duration lifetime) {
        this.link = Objects.requireNonNull(link, "link");
        if (lifetime.isNegative() || lifetime.isZero()) {
            throw new IllegalArgumentException("lifetime: " + lifetime + " (expected: > 0)");
        }
        this.lifetimeMillis = lifetime.toMillis();
        link.onUp(() -> List.copyOf(dropsOwed).forEach(this::drop));
    }

    private String redisKey(String tokenHash) {
        return link.prefix() + "key_copies:" + tokenHash;
    }

    @Override
    public void keep(KeyDirectory.Found found) {
        link.send(Request.cmd(Command.SET).arg(redisKey(found.key().tokenHash())).arg(KeyCopyCodec.write(found))
                        .arg("PX").arg(lifetimeMillis))
                .onFailure(e -> log.debug("keys.copy_not_written reason={}", e.getMessage()));
    }

    /**
     * Fails closed: a copy Redis could not drop now (it is down) is dropped as soon as it is back,
     * before it could serve, as copies are read only through a link that is up.
     */
    @Override
    public void drop(String tokenHash) {
        dropsOwed.add(tokenHash);
        link.send(Request.cmd(Command.DEL).arg(redisKey(tokenHash)))
                .onSuccess(deleted -> dropsOwed.remove(tokenHash))
                .onFailure(e -> log.warn("keys.copy_drop_owed token={} reason={}", tokenHash, e.getMessage()));
    }

    @Override
    public Optional<KeyDirectory.Found> find(String tokenHash) {
        if (dropsOwed.contains(tokenHash)) {
            return Optional.empty();
        }
        try {
            Response value = link.send(Request.cmd(Command.GET).arg(redisKey(tokenHash))).toCompletionStage()
                    .toCompletableFuture().get(READ_WAIT_MS, TimeUnit.MILLISECONDS);
            return value == null ? Optional.empty() : KeyCopyCodec.read(value.toString())
                    .filter(found -> found.key().tokenHash().equals(tokenHash));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } catch (Exception e) {
            log.debug("keys.copy_not_read reason={}", e.getMessage());
            return Optional.empty();
        }
    }

    @Override
    public boolean readable() {
        return link.isUp();
    }
}
