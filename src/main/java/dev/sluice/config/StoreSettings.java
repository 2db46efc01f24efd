package dev.sluice.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * Where keys, teams and spend are kept, from {@code general_settings}.
 *
 * @param databaseUrl     {@code database_url}, else the {@code DATABASE_URL} variable
 * @param storePath       Sluice's {@code store_path}: the embedded store's file when there is no
 *                        {@code database_url} (default {@code sluice-data/sluice}); the spend
 *                        buffer lives in a folder beside it
 * @param keyCopyLifetime Sluice's {@code virtual_key_copy_ttl_hours} (default 6): how long the Redis copy
 *                        of a key read from the store lives after its last read; zero keeps no copies
 */
public record StoreSettings(Optional<Secret> databaseUrl, Path storePath, Duration keyCopyLifetime) {

    /** The same settings with the embedded store in {@code path}. */
    public StoreSettings withStorePath(Path path) {
        return new StoreSettings(databaseUrl, path, keyCopyLifetime);
    }
}
