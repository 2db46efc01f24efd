package dev.sluice.store;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;

/** Short, log-sized reasons from the chains of exceptions that drivers and the pool throw. */
final class DriverMessages {
    private static final int MAX_LENGTH = 200;

    private DriverMessages() {}

    /**
     * The most specific driver message in the chain, cut at its first sentence: for a refused
     * connection {@code Connection to 127.0.0.1:5999 refused} rather than the pool's
     * "Connection is not available, request timed out after 2001ms (total=0, ...)".
     */
    static String shortReason(Throwable e) {
        Throwable best = e;
        for (Throwable link = e.getCause(); link != null && link != link.getCause(); link = link.getCause()) {
            if (link instanceof SQLException && link.getMessage() != null) {
                best = link;
            }
        }
        if (best == e && e instanceof SQLTransientConnectionException && e.getCause() != null
                && e.getCause().getMessage() != null) {
            best = e.getCause();
        }
        String message = best.getMessage() == null ? best.getClass().getSimpleName() : best.getMessage();
        int stop = message.indexOf(". ");
        if (stop > 0) {
            message = message.substring(0, stop);
        }
        message = message.strip();
        return message.length() <= MAX_LENGTH ? message : message.substring(0, MAX_LENGTH) + "...";
    }
}
