package dev.sluice.accounts;

import com.github.benmanes.caffeine.cache.AsyncCacheLoader;
import com.github.benmanes.caffeine.cache.AsyncLoadingCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.sluice.accounts.settings.TeamRouting;
import dev.sluice.store.Customer;
import dev.sluice.store.KeyRepository;
import dev.sluice.store.OrganizationRepository;
import dev.sluice.store.StoreException;
import dev.sluice.store.Team;
import dev.sluice.store.TeamMemberRepository;
import dev.sluice.store.TeamRepository;
import dev.sluice.store.UserRepository;
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
 * caller because the database blinked would turn a bookkeeping outage into a full one.
 *
 * <p><b>Copies outside the process.</b> Every key the store answers for is also written to
 * {@link KeyCopies} (Redis, shared by the replicas, under the key's SHA-256, expiring after
 * {@code virtual_key_copy_ttl_hours}); a key the store says does not exist has its copy
 * dropped, and so does every key this process forgets. Copies are read only when the store
 * cannot answer: a replica started, or restarted, during a database outage serves the keys
 * any replica used lately, with the settings they had then. A key with neither an entry here
 * nor a copy cannot be checked and is refused (503).
 *
 * <p><b>Known down.</b> Once a read has found the store unreachable, the store is taken to be
 * down: reads go straight to the copies, never waiting on the pool, and one read at a time,
 * at most every {@link #OUTAGE_BACKOFF}, tries the store in the background; the first that
 * succeeds ends the outage. {@link #canCheckKeysWithoutStore()} tells readiness whether a
 * key can be checked at all while the store is away.
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
    /** While the store is known down, how often one read tries it again in the background. */
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
            return hash -> keys.findByHash(hash).map(key -> new Found(key, key.owner().teamId().flatMap(teams::findById)));
        }

        /** A key with its team, its user, its team's organization and its user's budget in the team, each read when it is named. */
        static Source of(Accounts store) {
            KeyRepository keys = store.keys();
            TeamRepository teams = store.teams();
            UserRepository users = store.users();
            OrganizationRepository organizations = store.organizations();
            TeamMemberRepository members = store.teamMembers();
            return hash -> keys.findByHash(hash).map(key -> {
                Optional<Team> team = key.owner().teamId().flatMap(teams::findById);
                return new Found(key, team, new KeyOwners(key.owner().userId().flatMap(users::findById),
                        team.flatMap(Team::organizationId).flatMap(organizations::findById),
                        team.flatMap(t -> key.owner().userId().flatMap(user -> members.budget(t.teamId(), user)))));
            });
        }
    }

    private final Source source;
    private final LongSupplier nanoTime;
    private final Consumer<Found> onRead;
    private final AsyncLoadingCache<String, Optional<Found>> entries;
    /** {@code nanoTime} before which no read tries the store again, while {@link #lastOutage} is set. */
    private final AtomicLong nextTrial = new AtomicLong();
    /** Set while the store is known down: the failure that said so. */
    private volatile StoreException lastOutage;
    /** Whether a background read is trying the store now, during an outage. */
    private final java.util.concurrent.atomic.AtomicBoolean trying = new java.util.concurrent.atomic.AtomicBoolean();
    private final Executor reads;
    /** Set once by {@link #of}, before the directory is shared. */
    private KeyCopies copies = KeyCopies.NONE;
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
            Consumer<Customer> onCustomerRead, KeyCopies copies) {
        KeyDirectory keys = new KeyDirectory(Source.of(store), ttl, nanoTime, onKeyRead, KeyDirectory::onVirtualThread);
        keys.customers = new CustomerDirectory(store.customers(), ttl, nanoTime, onCustomerRead);
        keys.copies = copies;
        return keys;
    }

    /** The same directory keeping copies of its keys in {@code copies}; for tests, before it is shared. */
    KeyDirectory withCopies(KeyCopies copies) {
        this.copies = copies;
        return this;
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
        this.reads = reads;
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
        copies.drop(tokenHash);
    }

    /** Drops every key held and their copies, so each is read again with its user and organization on its next use. */
    public void forgetAll() {
        forgets.incrementAndGet();
        entries.synchronous().asMap().forEach((hash, found) -> found.ifPresent(key -> copies.drop(hash)));
        entries.synchronous().invalidateAll();
    }

    /** Drops every key of a user, and every read under way, so their next use reads the user again. */
    public void forgetUser(String userId) {
        forgetWhere(found -> found.key().owner().userId().filter(userId::equals).isPresent());
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
        forgetWhere(found -> found.key().owner().teamId().filter(teamId::equals).isPresent());
    }

    /**
     * Drops the keys held that {@code held} says yes to, and every read under way (what it reads
     * cannot be told yet); hashes held as "no such key" stay.
     */
    private void forgetWhere(Predicate<Found> held) {
        forgets.incrementAndGet();
        entries.asMap().entrySet().removeIf(entry -> {
            CompletableFuture<Optional<Found>> value = entry.getValue();
            boolean matched = value.isDone() && !value.isCompletedExceptionally() && value.join().filter(held).isPresent();
            if (matched) {
                copies.drop(entry.getKey());
            }
            return matched || !value.isDone() || value.isCompletedExceptionally();
        });
    }

    /**
     * Whether keys could be checked without the store: copies can be read, or this process
     * holds at least one key. A replica that can do neither refuses every virtual key while
     * the store is away, and readiness says so.
     */
    public boolean canCheckKeysWithoutStore() {
        return copies.readable() || entries.synchronous().asMap().values().stream().anyMatch(Optional::isPresent);
    }

    /** Whether the last read of the store found it unreachable, and none has succeeded since. */
    public boolean storeKnownDown() {
        return lastOutage != null;
    }

    /**
     * Reads the store; while it is known down, answers from the copies at once (a key without
     * one fails with the outage) and leaves trying the store to one background read at a time.
     */
    private Optional<Found> read(String tokenHash) {
        StoreException outage = lastOutage;
        if (outage != null) {
            tryStoreLater(tokenHash);
            return fromCopy(tokenHash, outage);
        }
        try {
            return fromStore(tokenHash);
        } catch (StoreException e) {
            if (e.reason() != StoreException.Reason.UNAVAILABLE) {
                throw e;
            }
            if (lastOutage == null) {
                nextTrial.set(nanoTime.getAsLong() + OUTAGE_BACKOFF.toNanos());
                lastOutage = e;
                log.warn("keys.store_unreachable reason={}; keys are served from memory and their copies until it answers",
                        e.getMessage());
            }
            return fromCopy(tokenHash, e);
        }
    }

    /** Reads the store, ending a known outage when it answers; keeps (or drops) the key's copy by what it says. */
    private Optional<Found> fromStore(String tokenHash) {
        long forgetsBefore = forgets.get();
        Optional<Found> found = source.find(tokenHash);
        if (lastOutage != null) {
            lastOutage = null;
            log.info("keys.store_reachable");
        }
        if (forgets.get() == forgetsBefore) {
            found.ifPresentOrElse(key -> {
                onRead.accept(key);
                copies.keep(key);
            }, () -> copies.drop(tokenHash));
        }
        storeReads.increment();
        return found;
    }

    /** What the copy of a key says, while the store cannot; the outage when there is no copy. */
    private Optional<Found> fromCopy(String tokenHash, StoreException outage) {
        Optional<Found> copy = copies.find(tokenHash);
        if (copy.isEmpty()) {
            throw outage;
        }
        log.debug("keys.served_from_copy token={}", tokenHash);
        // Per-model budgets are seeded from the spend log, which is in the unreachable store.
        if (copy.get().key().modelLimits().modelMaxBudget().isEmpty()) {
            onRead.accept(copy.get());
        }
        return copy;
    }

    /** During an outage, tries the store in the background: one read at a time, at most every {@link #OUTAGE_BACKOFF}. */
    private void tryStoreLater(String tokenHash) {
        long now = nanoTime.getAsLong();
        long due = nextTrial.get();
        if (now - due < 0 || !nextTrial.compareAndSet(due, now + OUTAGE_BACKOFF.toNanos()) || !trying.compareAndSet(false, true)) {
            return;
        }
        reads.execute(() -> {
            try {
                fromStore(tokenHash);
            } catch (StoreException stillDown) {
                log.debug("keys.store_still_unreachable reason={}", stillDown.getMessage());
            } finally {
                trying.set(false);
            }
        });
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
