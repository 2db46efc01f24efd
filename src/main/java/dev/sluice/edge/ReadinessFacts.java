package dev.sluice.edge;

import java.util.List;
import java.util.Optional;

/**
 * What readiness tells of the gateway's configuration, beside what it probes.
 *
 * @param cacheType        the response cache's {@code cache_params.type} ({@code local}, {@code redis}),
 *                         empty when no cache is on
 * @param successCallbacks the {@code success_callback} names configured
 */
public record ReadinessFacts(Optional<String> cacheType, List<String> successCallbacks) {
    public ReadinessFacts {
        successCallbacks = List.copyOf(successCallbacks);
    }
}
