/**
 * Keys, teams and spend, kept in an embedded H2 file or in PostgreSQL: {@link
 * dev.sluice.store.Database} opens either and applies the one schema in
 * {@code db/migration}; {@link dev.sluice.store.KeyRepository}, {@link
 * dev.sluice.store.TeamRepository} and {@link dev.sluice.store.SpendRepository} read and
 * write the records with plain JDBC; {@link dev.sluice.store.SpendLedger} posts finished
 * calls so that spend totals stay the exact sums of the spend log.
 *
 * <p>Everything here blocks on the database. Callers run it on virtual threads or workers,
 * never on an event loop; failures are {@link dev.sluice.store.StoreException}s whose reason
 * says whether the database was unreachable (buffer and retry), a unique value was taken,
 * or something else failed.
 */
package dev.sluice.store;
