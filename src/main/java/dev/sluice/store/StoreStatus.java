package dev.sluice.store;

import java.util.Objects;

/**
 * Whether the store answered a probe just now, for {@code /health/readiness}.
 *
 * @param connected true when a connection was had and answered
 * @param location  {@link StoreLocation#describe()}: where the store is
 * @param reason    why it is not connected, in a few words ({@code Connection to
 *                  127.0.0.1:5999 refused}); empty when connected
 */
public record StoreStatus(boolean connected, String location, String reason) {
    public StoreStatus {
        Objects.requireNonNull(location, "location");
        Objects.requireNonNull(reason, "reason");
    }

    static StoreStatus up(String location) {
        return new StoreStatus(true, location, "");
    }

    static StoreStatus down(String location, String reason) {
        return new StoreStatus(false, location, reason);
    }

    /** {@code connected}, or {@code unreachable: <reason>}. */
    public String describe() {
        return connected ? "connected" : "unreachable: " + reason;
    }
}
