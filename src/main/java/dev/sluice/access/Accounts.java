package dev.sluice.access;

import dev.sluice.config.GeneralSettings;
import dev.sluice.store.Database;
import dev.sluice.store.KeyRepository;
import dev.sluice.store.SpendLedger;
import dev.sluice.store.SpendRepository;
import dev.sluice.store.StoreException;
import dev.sluice.store.StoreLocation;
import dev.sluice.store.StoreOptions;
import dev.sluice.store.StoreStatus;
import dev.sluice.store.TeamRepository;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store of keys, teams and spend as the gateway uses it: the database (the embedded
 * file, or PostgreSQL from {@code database_url}), its repositories, and the spend log's
 * writer.
 *
 * <p>A database that cannot be reached at start-up does not stop the gateway: the master key
 * works, readiness says the store is unreachable, and the schema is applied as soon as the
 * database answers.
 */
public final class Accounts implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Accounts.class);
    private static final Duration MIGRATE_RETRY = Duration.ofSeconds(2);

    private final Database database;
    private final KeyRepository keys;
    private final TeamRepository teams;
    private final SpendRepository spendLog;
    private final SpendLedger ledger;
    private final Thread migrator;
    private final Thread resets;

    private Accounts(Database database, boolean migrated) {
        this.database = database;
        this.keys = new KeyRepository(database);
        this.teams = new TeamRepository(database);
        this.spendLog = new SpendRepository(database);
        this.ledger = new SpendLedger(database);
        this.migrator = migrated ? null : Thread.ofVirtual().name("sluice-store-migrate").start(this::migrateWhenReachable);
        this.resets = new BudgetResets(keys, teams, Clock.systemUTC(), ZoneOffset.UTC).start();
    }

    /** Opens the store the settings name, when they use one ({@link GeneralSettings#usesStore()}). */
    public static Optional<Accounts> open(GeneralSettings general, StoreOptions options) {
        if (!general.usesStore()) {
            return Optional.empty();
        }
        StoreLocation location = StoreLocation.of(general.databaseUrl(), general.storePath());
        try {
            return Optional.of(new Accounts(Database.open(location, options), true));
        } catch (StoreException e) {
            if (e.reason() != StoreException.Reason.UNAVAILABLE) {
                throw e;
            }
            log.warn("store.unreachable_at_start location={} reason={}; the gateway starts, and the schema is applied "
                    + "when the store answers", location.describe(), e.getMessage());
            return Optional.of(new Accounts(Database.connect(location, options), false));
        }
    }

    private void migrateWhenReachable() {
        while (!Thread.currentThread().isInterrupted()) {
            try {
                Thread.sleep(MIGRATE_RETRY);
                database.migrate();
                log.info("store.reachable location={}", database.location().describe());
                return;
            } catch (InterruptedException e) {
                return;
            } catch (StoreException e) {
                if (e.reason() != StoreException.Reason.UNAVAILABLE) {
                    log.error("store.migration_failed location={} reason={}", database.location().describe(), e.getMessage());
                    return;
                }
            }
        }
    }

    public KeyRepository keys() {
        return keys;
    }

    public TeamRepository teams() {
        return teams;
    }

    public SpendRepository spendLog() {
        return spendLog;
    }

    public SpendLedger ledger() {
        return ledger;
    }

    /** Where finished calls' spend rows go. */
    public SpendRecorder spend() {
        return row -> {
            Thread.ofVirtual().name("sluice-spend").start(() -> {
                try {
                    ledger.post(java.util.List.of(row));
                } catch (StoreException e) {
                    log.error("spend.not_written call_id={} reason={}", row.callId(), e.getMessage());
                }
            });
            return true;
        };
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
        database.close();
    }
}
