package dev.sluice.store;

/** Store failures as the database's driver would cause them, for sinks scripted in tests of other packages. */
public final class StoreFailures {
    private StoreFailures() {}

    /** The database could not be reached: worth keeping the rows and posting them again. */
    public static StoreException unavailable(String message) {
        return new StoreException(StoreException.Reason.UNAVAILABLE, message, null);
    }

    /** The rows themselves were refused, as a value too long for its column is. */
    public static StoreException refused(String message) {
        return new StoreException(StoreException.Reason.FAILED, message, null);
    }
}
