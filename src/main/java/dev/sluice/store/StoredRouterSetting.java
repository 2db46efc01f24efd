package dev.sluice.store;

import java.time.Instant;
import java.util.Objects;

/**
 * A router setting changed through the router settings API, as stored.
 *
 * @param name      the setting's {@code router_settings} name, e.g. {@code num_retries}
 * @param value     its value as JSON, in canonical form
 * @param updatedAt when it was last set
 */
public record StoredRouterSetting(String name, String value, Instant updatedAt) {
    public StoredRouterSetting {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(value, "value");
        updatedAt = Columns.micros(Objects.requireNonNull(updatedAt, "updatedAt"));
    }
}
