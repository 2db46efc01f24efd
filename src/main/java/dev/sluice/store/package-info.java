/**
 * Keys, teams and spend, kept in an embedded H2 file or in PostgreSQL: {@link
 * dev.sluice.store.Database} opens either and applies the one schema in
 * {@code db/migration}; {@link dev.sluice.store.KeyRepository}, {@link
 * dev.sluice.store.TeamRepository} and {@link dev.sluice.store.SpendRepository} read and
 * write the records with plain JDBC ({@link dev.sluice.store.ResponseRepository} keeps the
 * Responses API's answers for later calls); {@link dev.sluice.store.SpendLedger} posts finished
 * calls so that spend totals stay the exact sums of the spend log.
 *
 * <p>The spend journal ({@link dev.sluice.store.journal}) is how calls reach the ledger: it
 * takes each call's row without waiting on the disk or the database, keeps it on disk, and
 * posts rows in batches from a thread of its own, so that spend is never lost.
 * {@link dev.sluice.store.LegacySpendBuffer} reads the spend buffer folder of earlier
 * versions, whose rows the journal imports.
 *
 * <p>Everything else here blocks on the
 * database or the disk. Callers run it on virtual threads or workers, never on an event
 * loop; failures are {@link dev.sluice.store.StoreException}s whose reason
 * says whether the database was unreachable (keep the rows and retry), a unique value was taken,
 * or something else failed.
 */
package dev.sluice.store;

