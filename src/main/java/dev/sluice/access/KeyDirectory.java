package dev.sluice.access;

import dev.sluice.store.KeyRepository;
import dev.sluice.store.StoreException;
import dev.sluice.store.Team;
import dev.sluice.store.TeamRepository;
import dev.sluice.store.VirtualKey;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Virtual keys by hash, read from the store and kept for a short while so the database is
 * not on every request's path.
 *
 * <h2>Design notes</h2>
 * An entry is fresh for {@link #DEFAULT_TTL}: a change made through another replica's key
 * API reaches this one within that time; a change made through this process's API drops the
 * entry at once ({@link #forget}). Unknown keys are remembered too, so a caller trying
 * made-up keys costs the database one read per key per period, and the map is bounded.
 *
 * <p>An entry past its lifetime is still answered at once, and read again in the background
 * (once, however many requests see it stale): a request for a known key never waits on the
 * store. So when the store cannot be reached, a key seen before keeps working on what was
 * last read of it, however old: refusing every caller because the database blinked would turn
 * a bookkeeping outage into a full one. A key never seen cannot be checked and is refused
 * (503); once a read has found the store unreachable, such keys are refused at once for
 * {@link #OUTAGE_BACKOFF} rather than each waiting out the connection timeout.
 *
 * <p>Looking a hash up in a map is not a constant-time comparison, but what is compared is the
 * SHA-256 of what the caller sent: timing tells an attacker nothing about a stored key.
 */
public final class KeyDirectory {
    private static final Logger log = LoggerFactory.getLogger(KeyDirectory.class);

    public static final Duration DEFAULT_TTL = Duration.ofSeconds(5);
    /** After a read finds the store unreachable, reads of unseen keys fail at once for this long. */
    static final Duration OUTAGE_BACKOFF = Duration.ofSeconds(2);
    /** Entries kept before unknown keys are dropped to make room. */
    static final int MAX_ENTRIES = 100_000;

    /** A stored key and the team it belongs to, when it has one that still exists. */
    public record Found(VirtualKey key, Optional<Team> team) {
        public Found {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(team, "team");
        }
    }

    private record Entry(Optional<Found> found, long readAtNanos) {}

    private final KeyRepository keys;
    private final TeamRepository teams;
    private final long ttlNanos;
    private final LongSupplier nanoTime;
    private final Consumer<Found> onRead;
    private final ConcurrentMap<String, Entry> entries = new ConcurrentHashMap<>();
    private final Set<String> refreshing = ConcurrentHashMap.newKeySet();
    /** {@code nanoTime} before which the store is taken to be unreachable; 0 when it is not. */
    private final AtomicLong unreachableUntil = new AtomicLong();
    private volatile StoreException lastOutage;
    /** Counts {@link #forget}s: a read that began before one must not put back what it dropped. */
    private final AtomicLong forgets = new AtomicLong();

    /** @param onRead told of every key read from the store (to seed its spend counters), on the reading thread */
    public KeyDirectory(KeyRepository keys, TeamRepository teams, Duration ttl, LongSupplier nanoTime, Consumer<Found> onRead) {
        this.keys = keys;
        this.teams = teams;
        this.ttlNanos = ttl.toNanos();
        this.nanoTime = nanoTime;
        this.onRead = onRead;
    }

    /**
     * What is known of {@code tokenHash} without waiting on the store: empty when it must be
     * read ({@link #read}); else the key, or an empty {@code Optional} for a key known not to
     * exist. An entry past its lifetime is answered too, and read again in the background.
     */
    public Optional<Optional<Found>> cached(String tokenHash) {
        Entry entry = entries.get(tokenHash);
        if (entry == null) {
            return Optional.empty();
        }
        if (nanoTime.getAsLong() - entry.readAtNanos() >= ttlNanos && refreshing.add(tokenHash)) {
            Thread.ofVirtual().name("sluice-key-refresh").start(() -> {
                try {
                    read(tokenHash);
                } catch (StoreException e) {
                    log.debug("keys.refresh_postponed reason={}", e.getMessage());
                } finally {
                    refreshing.remove(tokenHash);
                }
            });
        }
        return Optional.of(entry.found());
    }

    /**
     * Reads {@code tokenHash} from the store. Blocks: call it off the event loop.
     *
     * @throws StoreException of reason UNAVAILABLE when the store cannot be reached and the
     *                        key was never read before
     */
    public Optional<Found> read(String tokenHash) {
        Optional<Found> found;
        long forgetsBefore = forgets.get();
        try {
            StoreException outage = lastOutage;
            if (outage != null && nanoTime.getAsLong() - unreachableUntil.get() < 0 && !entries.containsKey(tokenHash)) {
                throw outage;
            }
            found = keys.findByHash(tokenHash).map(key -> new Found(key, key.teamId().flatMap(teams::findById)));
            lastOutage = null;
        } catch (StoreException e) {
            if (e.reason() == StoreException.Reason.UNAVAILABLE) {
                if (e != lastOutage) {
                    lastOutage = e;
                    unreachableUntil.set(nanoTime.getAsLong() + OUTAGE_BACKOFF.toNanos());
                }
                Entry last = entries.get(tokenHash);
                if (last != null) {
                    log.debug("keys.served_from_memory reason={}", e.getMessage());
                    return last.found();
                }
            }
            throw e;
        }
        if (forgets.get() != forgetsBefore) {
            // A key or team changed while this read was under way: what it read may be from
            // before the change. Answer it, but keep nothing; the next use reads again.
            return found;
        }
        found.ifPresent(onRead);
        if (entries.size() >= MAX_ENTRIES) {
            entries.values().removeIf(entry -> entry.found().isEmpty());
            if (entries.size() >= MAX_ENTRIES) {
                entries.clear();
            }
        }
        entries.put(tokenHash, new Entry(found, nanoTime.getAsLong()));
        return found;
    }

    /** Drops what is held of a key, so its next use reads the store. */
    public void forget(String tokenHash) {
        forgets.incrementAndGet();
        entries.remove(tokenHash);
    }

    /** Drops every key of a team, so their next use reads the team again. */
    public void forgetTeam(String teamId) {
        forgets.incrementAndGet();
        entries.values().removeIf(entry -> entry.found().flatMap(f -> f.key().teamId()).filter(teamId::equals).isPresent());
    }
}
