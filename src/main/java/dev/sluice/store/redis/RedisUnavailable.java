package dev.sluice.store.redis;

/** Why a Redis call did not run: Redis is down. Carries no stack trace, as it is expected. */
final class RedisUnavailable extends RuntimeException {
    RedisUnavailable(String message) {
        super(message, null, false, false);
    }
}
