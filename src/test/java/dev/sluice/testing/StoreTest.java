package dev.sluice.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.TestTemplate;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A test that runs once on each engine, embedded H2 and PostgreSQL, each time on a fresh
 * store. It may take a {@link dev.sluice.store.Database} (opened and migrated), a
 * {@link TestDatabase} (to open more pools, or none) or the {@link dev.sluice.store.Engine}.
 *
 * <pre>{@code
 * @StoreTest
 * void findsWhatItInserted(Database database) {
 *     KeyRepository keys = new KeyRepository(database);
 *     ...
 * }
 * }</pre>
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@TestTemplate
@ExtendWith(BothStores.class)
public @interface StoreTest {}
