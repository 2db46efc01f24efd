package dev.sluice.access;

import com.github.benmanes.caffeine.cache.AsyncCacheLoader;
import com.github.benmanes.caffeine.cache.AsyncLoadingCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.sluice.settings.TeamRouting;
import dev.sluice.store.Customer;
import dev.sluice.store.KeyRepository;
import dev.sluice.store.OrganizationRepository;
import dev.sluice.store.UserRepository;
import dev.sluice.store.StoreException;
import dev.sluice.store.Team;
import dev.sluice.store.TeamMemberRepository;
import dev.sluice.store.TeamRepository;
import dev.sluice.store.VirtualKey;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Virtual keys by hash, read from the store and kept for a short while so the database is
 * not on every request's path.
 *
 * <h2>Design notes</h2>
 * A Caffeine cache holds what the store said of each hash, a key or "no such key", bounded
 * to {@link #MAX_ENTRIES} by size: when full, the entries least likely to be used again go
 * first. Time is Caffeine's {@link com.github.benmanes.caffeine.cache.Ticker}, read from the
 * {@code nanoTime} this class is given, so tests move time instead of sleeping.
 *
 * <p>An entry is fresh for {@link #DEFAULT_TTL} and stale once more has passed (refresh after
 * write): a change made through another replica's key API reaches this one within that time;
 * a change made through this process's API drops the entry at once ({@link #forget}). Unknown
 * keys are remembered too, so a caller trying made-up keys costs the database one read per
 * key per period.
 *
 * <p>Loads are single-flight: however many requests ask at once for a hash not held, the
 * store is read once and every one of them gets that read's answer. Reads run on virtual
 * threads, never on the caller's thread: {@link #find} only hands back a future.
 *
 * <p>An entry past its lifetime is still answered at once, and read again in the background
 * (once, however many requests see it stale): a request for a known key never waits on the
 * store. So when the store cannot be reached, a key seen before keeps working on what was
 * last read of it, however old (a refresh that fails keeps the old value): refusing every
 * caller because the database blinked would turn a bookkeeping outage into a full one. A key
 * never seen cannot be checked and is refused (503); once a read has found the store
 * unreachable, such keys are refused at once for {@link #OUTAGE_BACKOFF} rather than each
 * waiting out the connection timeout.
 *
 * <p>A read under way when {@link #forget}, {@link #forgetTeam}, {@link #forgetUser} or
 * {@link #forgetOrganization} drops what it reads may
 * bring back the state from before the change: Caffeine keeps no load or refresh whose entry
 * was dropped meanwhile, and such a read does not seed spend counters either.
 *
 * <p>Looking a hash up in a map is not a constant-time comparison, but what is compared is the
 * SHA-256 of what the caller sent: timing tells an attacker nothing about a stored key.
 */
public final class KeyDirectory {
    private static final Logger log = LoggerFactory.getLogger(KeyDirectory.class);

    public static final Duration DEFAULT_TTL = Duration.ofSeconds(5);
    /** After a read finds the store unreachable, reads of unseen keys fail at once for this long. */
    static final Duration OUTAGE_BACKOFF = Duration.ofSeconds(2);
    /** Entries kept; past this the cache evicts by size. */
    static final int MAX_ENTRIES = 100_000;

    /**
     * A stored key and the team it belongs to, when it has one that still exists, with the
     * team's router settings read once here rather than on every call.
     */
    public record Found(VirtualKey key, Optional<Team> team, TeamRouting teamRouting, KeyOwners owners) {
        public Found {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(team, "team");
            Objects.requireNonNull(teamRouting, "teamRouting");
            Objects.requireNonNull(owners, "owners");
        }

        public Found(VirtualKey key, Optional<Team> team, KeyOwners owners) {
            this(key, team, TeamRouting.of(team), owners);
        }

        public Found(VirtualKey key, Optional<Team> team) {
            this(key, team, KeyOwners.NONE);
        }
    }

    /** Where keys are read from: the store. Blocks. */
    @FunctionalInterface
    interface Source {
        Optional<Found> find(String tokenHash);

        static Source of(KeyRepository keys, TeamRepository teams) {
            return hash -> keys.findByHash(hash).map(key -> new Found(key, key.teamId().flatMap(teams::findById)));
        }

        /** A key with its team, its user, its team's organization and its user's budget in the team, each read when it is named. */
        static Source of(Accounts store) {
            KeyRepository keys = store.keys();
            TeamRepository teams = store.teams();
            UserRepository users = store.users();
            OrganizationRepository organizations = store.organizations();
            TeamMemberRepository members = store.teamMembers();
            return hash -> keys.findByHash(hash).map(key -> {
                Optional<Team> team = key.teamId().flatMap(teams::findById);
                return new Found(key, team, new KeyOwners(key.userId().flatMap(users::findById),
                        team.flatMap(Team::organizationId).flatMap(organizations::findById),
                        team.flatMap(t -> key.userId().flatMap(user -> members.budget(t.teamId(), user)))));
            });
        }
    }

    private final Source source;
    private final LongSupplier nanoTime;
    private final Consumer<Found> onRead;
    private final AsyncLoadingCache<String, Optional<Found>> entries;
    /** {@code nanoTime} before which the store is taken to be unreachable, when {@link #lastOutage} is set. */
    private final AtomicLong unreachableUntil = new AtomicLong();
    private volatile StoreException lastOutage;
    /** Counts forgets: a read that began before one must not seed counters with what it read. */
    private final AtomicLong forgets = new AtomicLong();
    /** Reads the store answered, counted once what they read has been handed on. */
    private final LongAdder storeReads = new LongAdder();
    /** Set once by {@link #of}, before the directory is shared. */
    private CustomerDirectory customers = CustomerDirectory.NONE;

    /** @param onRead told of every key read from the store (to seed its spend counters), on the reading thread */
    public KeyDirectory(KeyRepository keys, TeamRepository teams, Duration ttl, LongSupplier nanoTime, Consumer<Found> onRead) {
        this(Source.of(keys, teams), ttl, nanoTime, onRead, KeyDirectory::onVirtualThread);
    }

    /**
     * Keys read from {@code store} with their teams, users and organizations, and the customers
     * calls name; {@code onKeyRead} and {@code onCustomerRead} are told of each one read (to seed
     * its spend counters), on the reading thread.
     */
    public static KeyDirectory of(Accounts store, Duration ttl, LongSupplier nanoTime, Consumer<Found> onKeyRead,
            Consumer<Customer> onCustomerRead) {
        KeyDirectory keys = new KeyDirectory(Source.of(store), ttl, nanoTime, onKeyRead, KeyDirectory::onVirtualThread);
        keys.customers = new CustomerDirectory(store.customers(), ttl, nanoTime, onCustomerRead);
        return keys;
    }

    /** The customers calls name in {@code user}, read from the same store; {@link CustomerDirectory#NONE} without one. */
    public CustomerDirectory customers() {
        return customers;
    }

    /** @param reads where store reads and the cache's upkeep run */
    KeyDirectory(Source source, Duration ttl, LongSupplier nanoTime, Consumer<Found> onRead, Executor reads) {
        this.source = source;
        this.nanoTime = nanoTime;
        this.onRead = onRead;
        this.entries = Caffeine.newBuilder()
                .maximumSize(MAX_ENTRIES)
                .refreshAfterWrite(ttl)
                .ticker(nanoTime::getAsLong)
                .executor(reads)
                .buildAsync(new Loader());
    }

    private static void onVirtualThread(Runnable read) {
        Thread.ofVirtual().name("sluice-key-read").start(read);
    }

    /**
     * What the store says of {@code tokenHash}: the key, or an empty {@code Optional} for a
     * key that does not exist. Already complete when the hash is held (a stale entry is
     * answered too, and read again in the background); else completes on a virtual thread once
     * the store is read, failing with a {@link StoreException} of reason UNAVAILABLE when the
     * store cannot be reached. Never blocks.
     */
    public CompletableFuture<Optional<Found>> find(String tokenHash) {
        return entries.get(tokenHash);
    }

    /** What is held of {@code tokenHash} without reading the store: a key found, or empty for one not held or held as unknown. */
    public Optional<Found> held(String tokenHash) {
        CompletableFuture<Optional<Found>> entry = entries.getIfPresent(tokenHash);
        return entry != null && entry.isDone() && !entry.isCompletedExceptionally() ? entry.join() : Optional.empty();
    }

    /** Reads of the store that it answered (first reads and refreshes), each counted after its spend seeding. */
    public long storeReads() {
        return storeReads.sum();
    }

    /** Drops what is held of a key, so its next use reads the store. */
    public void forget(String tokenHash) {
        forgets.incrementAndGet();
        entries.synchronous().invalidate(tokenHash);
    }

    /** Drops every key held, so each is read again with its user and organization on its next use. */
    public void forgetAll() {
        forgets.incrementAndGet();
        entries.synchronous().invalidateAll();
    }

    /** Drops every key of a user, and every read under way, so their next use reads the user again. */
    public void forgetUser(String userId) {
        forgetWhere(found -> found.key().userId().filter(userId::equals).isPresent());
    }

    /**
     * Drops every key of a team in an organization, and every read under way, so their next
     * use reads the organization again (a key has an organization only through its team).
     */
    public void forgetOrganization(String organizationId) {
        forgetWhere(found -> found.team().flatMap(Team::organizationId).filter(organizationId::equals).isPresent());
    }

    /** Drops every key of a team, and every read under way, so their next use reads the team again. */
    public void forgetTeam(String teamId) {
        forgetWhere(found -> found.key().teamId().filter(teamId::equals).isPresent());
    }

    /**
     * Drops the keys held that {@code held} says yes to, and every read under way (what it reads
     * cannot be told yet); hashes held as "no such key" stay.
     */
    private void forgetWhere(Predicate<Found> held) {
        forgets.incrementAndGet();
        entries.asMap().values().removeIf(entry -> !entry.isDone() || entry.isCompletedExceptionally()
                || entry.join().filter(held).isPresent());
    }

    /** Reads the store, refusing at once while an outage lasts. */
    private Optional<Found> read(String tokenHash) {
        StoreException outage = lastOutage;
        if (outage != null && nanoTime.getAsLong() - unreachableUntil.get() < 0) {
            throw outage;
        }
        long forgetsBefore = forgets.get();
        Optional<Found> found;
        try {
            found = source.find(tokenHash);
            lastOutage = null;
        } catch (StoreException e) {
            if (e.reason() == StoreException.Reason.UNAVAILABLE && e != lastOutage) {
                unreachableUntil.set(nanoTime.getAsLong() + OUTAGE_BACKOFF.toNanos());
                lastOutage = e;
            }
            throw e;
        }
        if (forgets.get() == forgetsBefore) {
            found.ifPresent(onRead);
        }
        storeReads.increment();
        return found;
    }

    /** Loads a hash not held; refreshes a stale one, keeping the old value when the store cannot answer. */
    private final class Loader implements AsyncCacheLoader<String, Optional<Found>> {
        @Override
        public CompletableFuture<Optional<Found>> asyncLoad(String tokenHash, Executor executor) {
            return CompletableFuture.supplyAsync(() -> read(tokenHash), executor);
        }

        @Override
        public CompletableFuture<Optional<Found>> asyncReload(String tokenHash, Optional<Found> old, Executor executor) {
            return CompletableFuture.supplyAsync(() -> {
                try {
                    return read(tokenHash);
                } catch (StoreException e) {
                    log.debug("keys.served_from_memory reason={}", e.getMessage());
                    return old;
                }
            }, executor);
        }
    }
}
