package dev.sluice.store;

/** The database engines the store runs on, with the one schema in {@code db/migration}. */
public enum Engine {
    /** H2, embedded in the process, in its PostgreSQL compatibility mode. */
    H2,
    /** A PostgreSQL server. */
    POSTGRESQL
}
