package dev.sluice.store;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;

/**
 * A store operation that did not complete, with the reason callers decide on: an
 * {@link Reason#UNAVAILABLE unreachable} database is worth buffering for and retrying, a
 * {@link Reason#CONFLICT conflict} is the caller's to report, anything else is a fault.
 * The message names the operation and, for an unreachable database, where it was sought.
 */
public final class StoreException extends RuntimeException {

    /** Why an operation failed, read off the driver's SQLSTATE once, here. */
    public enum Reason {
        /** No connection could be had or kept (SQLSTATE class 08, or the pool timed out). */
        UNAVAILABLE,
        /** A unique value is taken (SQLSTATE 23505): a key alias, a team id, a key hash. */
        CONFLICT,
        /** Anything else: a bad statement, a broken migration, a closed store. */
        FAILED
    }

    private final Reason reason;

    StoreException(Reason reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }

    /** Classifies a driver failure of {@code operation} (e.g. "insert key"). */
    static StoreException of(String operation, SQLException e) {
        Reason reason = classify(e);
        String detail = reason == Reason.UNAVAILABLE ? DriverMessages.shortReason(e) : e.getMessage();
        return new StoreException(reason, operation + ": " + detail, e);
    }

    static Reason classify(SQLException e) {
        for (SQLException link = e; link != null; link = link.getNextException()) {
            String state = link.getSQLState();
            if (link instanceof SQLTransientConnectionException || (state != null && state.startsWith("08"))) {
                return Reason.UNAVAILABLE;
            }
            if ("23505".equals(state)) {
                return Reason.CONFLICT;
            }
        }
        return Reason.FAILED;
    }
}
