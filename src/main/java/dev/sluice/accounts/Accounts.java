package dev.sluice.accounts;

import dev.sluice.accounts.spend.SpendRecorder;
import dev.sluice.config.GeneralSettings;
import dev.sluice.config.SpendLogSettings;
import dev.sluice.store.CustomerRepository;
import dev.sluice.store.DailySpendRepository;
import dev.sluice.store.Database;
import dev.sluice.store.KeyRepository;
import dev.sluice.store.ModelRepository;
import dev.sluice.store.OrganizationRepository;
import dev.sluice.store.ResponseRepository;
import dev.sluice.store.RouterSettingRepository;
import dev.sluice.store.SpendLedger;
import dev.sluice.store.SpendLogReader;
import dev.sluice.store.SpendRepository;
import dev.sluice.store.SpendRow;
import dev.sluice.store.StoreException;
import dev.sluice.store.StoreLocation;
import dev.sluice.store.StoreOptions;
import dev.sluice.store.StoreStatus;
import dev.sluice.store.TeamMemberRepository;
import dev.sluice.store.TeamRepository;
import dev.sluice.store.UserRepository;
import dev.sluice.store.journal.JournalStatus;
import dev.sluice.store.journal.JournaledSpend;
import dev.sluice.store.journal.SpendShippingStatus;
import dev.sluice.time.Scheduler;
import dev.sluice.time.SupervisedLoop;
import dev.sluice.time.TimeSource;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store of keys, teams, spend and added models as the gateway uses it: the database (the embedded
 * file, or PostgreSQL from {@code database_url}), its repositories, the spend journal that ships the spend log
 * to the store, and the job that resets budgets in the store.
 *
 * <p>A database that cannot be reached at start-up does not stop the gateway: the master key
 * works, readiness says the store is unreachable, and the schema is applied as soon as the
 * database answers.
 */
public final class Accounts implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Accounts.class);
    private static final Duration MIGRATE_RETRY = Duration.ofSeconds(2);
    /** The longest start-up waits for the schema to be applied before it goes on without the database. */
    static final Duration START_WAIT = Duration.ofSeconds(2);
    /** How long the start waits for a migration under way on a database that answered. */
    static final Duration MIGRATION_WAIT = Duration.ofSeconds(120);

    private final Database database;
    private final JournaledSpend spend;
    private final SupervisedLoop migrator;
    private final SupervisedLoop resets;
    private final SupervisedLoop ownerResets;
    private final SupervisedLoop pruning;

    private final CompletableFuture<Void> migrated;
    private final Scheduler scheduler;

    /**
     * @param firstMigration the migration started at open: done when it finished within
     *                       {@link #START_WAIT}; else the migrator waits for it, then tries
     *                       again until the database answers
     */
    private Accounts(Database database, CompletableFuture<Void> firstMigration, JournaledSpend spend, SpendLogSettings spendLogs,
            Clock clock, Scheduler scheduler) {
        this.database = database;
        this.scheduler = scheduler;
        this.spend = spend;
        this.migrated = new CompletableFuture<>();
        spend.start(new SpendLedger(database, clock));
        if (firstMigration.isDone() && !firstMigration.isCompletedExceptionally()) {
            migrated.complete(null);
            this.migrator = null;
        } else {
            this.migrator = scheduler.loop("store-migrate", () -> migrateWhenReachable(firstMigration));
        }
        this.resets = new BudgetResets(keys(), teams(), clock, ZoneOffset.UTC).start(scheduler);
        this.ownerResets = new OwnerBudgetResets(users(), organizations(), customers(), clock, ZoneOffset.UTC).start(scheduler);
        this.pruning = new SpendLogPruning(spendLog(), spendLogs, clock).start(migrated, scheduler);
    }

    /**
     * Opens the store the settings name, when they use one ({@link GeneralSettings#usesStore()});
     * its background jobs (the migration retries, the budget resets, the spend log's pruning, the spend journal's commits
     * and shipping) run on {@code scheduler}, and everything it dates or measures on {@code time}.
     */
    public static Optional<Accounts> open(GeneralSettings general, StoreOptions options, TimeSource time, Scheduler scheduler) {
        if (!general.usesStore()) {
            return Optional.empty();
        }
        StoreLocation location = StoreLocation.of(general.store().databaseUrl(), general.store().storePath());
        JournaledSpend spend = JournaledSpend.open(spendJournalFolder(general), spendBufferFolder(general), time, scheduler);
        Database database;
        try {
            database = Database.connect(location, options, time.ticker());
        } catch (RuntimeException e) {
            spend.close();
            throw e;
        }
        // The schema is applied before the gateway listens when the database answers at once;
        // a database that is away does not hold up the start for its connection timeout.
        CompletableFuture<Void> first = new CompletableFuture<>();
        Thread.ofVirtual().name("sluice-store-migrate-first").start(() -> {
            try {
                database.migrate();
                first.complete(null);
            } catch (Throwable e) {
                first.completeExceptionally(e); // an Error too: the start waits on this, without end for an embedded file
            }
        });
        try {
            // An embedded file is never away: its schema is always applied before the gateway listens.
            long wait = location instanceof StoreLocation.Embedded ? Long.MAX_VALUE : START_WAIT.toMillis();
            try {
                first.get(wait, TimeUnit.MILLISECONDS);
            } catch (TimeoutException slow) {
                if (!database.reached()) {
                    throw slow;
                }
                // The database answered and the schema is being applied (on a busy host, or a
                // first start's many migrations): listening now would refuse every key until then.
                first.get(MIGRATION_WAIT.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof StoreException store) || store.reason() != StoreException.Reason.UNAVAILABLE) {
                database.close();
                spend.close();
                throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
            }
            unreachableAtStart(location, e.getCause().getMessage());
        } catch (TimeoutException e) {
            unreachableAtStart(location, "no answer within " + START_WAIT.toMillis() + " ms");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            database.close();
            spend.close();
            throw new IllegalStateException("interrupted opening " + location.describe(), e);
        }
        return Optional.of(new Accounts(database, first, spend, general.spendLogs(), time.clock(), scheduler));
    }

    private static void unreachableAtStart(StoreLocation location, String reason) {
        log.warn("store.unreachable_at_start location={} reason={}; the gateway starts, and the schema, the stored "
                + "models and the stored router settings load when the store answers", location.describe(), reason);
    }

    /**
     * Completes once the schema is applied: at once when the database answered at start-up,
     * else when it does. What is read from the store at start-up waits for this.
     */
    public CompletableFuture<Void> migrated() {
        return migrated;
    }

    /** The spend journal's folder: {@code spend-journal} beside {@code store_path}'s file, whichever store is used. */
    static Path spendJournalFolder(GeneralSettings general) {
        return general.store().storePath().toAbsolutePath().getParent().resolve("spend-journal");
    }

    /** Where earlier versions kept spend rows the store had not taken: {@code spend-buffer} beside the journal. */
    static Path spendBufferFolder(GeneralSettings general) {
        Path parent = general.store().storePath().toAbsolutePath().getParent();
        return parent.resolve("spend-buffer");
    }

    private void migrateWhenReachable(CompletableFuture<Void> firstMigration) throws InterruptedException {
        try {
            firstMigration.join();
            migrated.complete(null);
            log.info("store.reachable location={}", database.location().describe());
            return;
        } catch (RuntimeException firstFailed) {
            // the first attempt found no database: try again below
        }
        while (!Thread.currentThread().isInterrupted()) {
            scheduler.sleep(MIGRATE_RETRY);
            try {
                database.migrate();
                migrated.complete(null);
                log.info("store.reachable location={}", database.location().describe());
                return;
            } catch (StoreException e) {
                if (e.reason() != StoreException.Reason.UNAVAILABLE) {
                    log.error("store.migration_failed location={} reason={}", database.location().describe(), e.getMessage());
                    return;
                }
            }
        }
    }

    // A repository holds only the database and its statements: each accessor hands out a new one.

    public KeyRepository keys() {
        return new KeyRepository(database);
    }

    public TeamRepository teams() {
        return new TeamRepository(database);
    }

    public UserRepository users() {
        return new UserRepository(database);
    }

    public OrganizationRepository organizations() {
        return new OrganizationRepository(database);
    }

    /** Customers: the end users calls name in {@code user}. */
    public CustomerRepository customers() {
        return new CustomerRepository(database);
    }

    public TeamMemberRepository teamMembers() {
        return new TeamMemberRepository(database);
    }

    public SpendRepository spendLog() {
        return new SpendRepository(database);
    }

    /** The spend log as reports read it. */
    public SpendLogReader spendReader() {
        return new SpendLogReader(database);
    }

    /** The daily rollups of the spend log, which reports by day read. */
    public DailySpendRepository dailySpend() {
        return new DailySpendRepository(database);
    }

    /** Deployments added through the model API. */
    public ModelRepository models() {
        return new ModelRepository(database);
    }

    /** Router settings changed through the router settings API. */
    public RouterSettingRepository routerSettings() {
        return new RouterSettingRepository(database);
    }

    /** The responses answered through the Responses API, kept for follow-ups. */
    public ResponseRepository responses() {
        return new ResponseRepository(database);
    }

    /** Where finished calls' spend rows go: the spend journal, shipped to the store behind the calls. */
    public SpendRecorder spend() {
        return new SpendRecorder() {
            @Override
            public boolean record(SpendRow row) {
                return spend.record(row);
            }

            @Override
            public boolean accepting() {
                return spend.accepting();
            }
        };
    }

    /** The spend rows' state: rows not yet in the store, the journal's bytes, whether the store took the last post. */
    public SpendShippingStatus spendStatus() {
        return spend.status();
    }

    /** The spend journal's own state: its bytes against its bound, what waits and for how long. */
    public JournalStatus spendJournal() {
        return spend.journalStatus();
    }

    /**
     * The spend journal and its shipping, for the composition root to close before the scheduler
     * their threads run on stops its jobs: closing ships what it can while the database is still
     * open. {@link #close} closes it too, if it is still open.
     */
    public JournaledSpend journaledSpend() {
        return spend;
    }

    /** Probes the database; blocks for at most the connection timeout. */
    public StoreStatus status() {
        return database.status();
    }

    @Override
    public void close() {
        if (migrator != null) {
            migrator.interrupt();
        }
        resets.interrupt();
        ownerResets.interrupt();
        pruning.interrupt();
        // The journal's shipper, then the database: its last posts need the database, and what
        // they cannot post stays in the journal for the next start.
        spend.close();
        database.close();
    }
}
