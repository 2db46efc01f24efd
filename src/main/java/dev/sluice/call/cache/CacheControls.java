package dev.sluice.call.cache;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.config.CacheSettings;
import dev.sluice.wire.ApiError;
import dev.sluice.wire.JsonProblems;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Optional;

/**
 * What one request asks of the response cache, in its body's {@code cache} object as LiteLLM
 * reads it: {@code no-cache} (do not read an entry; the answer is still stored),
 * {@code no-store} (do not store the answer), {@code ttl} (store it for this many seconds),
 * {@code s-maxage} (accept only an entry at most this many seconds old; LiteLLM also reads
 * {@code s-max-age}), {@code namespace} (read and store under this namespace instead of the
 * configured one) and {@code use-cache} (with {@code mode: default_off}, cache this call). A field of the wrong type is a 400
 * naming it; an unknown field is passed over, as LiteLLM passes it over.
 */
public record CacheControls(boolean noCache, boolean noStore, Optional<Duration> ttl, Optional<Duration> maxAge,
        Optional<String> namespace, Optional<Boolean> useCache) {

    /** A request that asks nothing of the cache. */
    public static final CacheControls NONE = new CacheControls(false, false, Optional.empty(), Optional.empty(),
            Optional.empty(), Optional.empty());

    /** The longest ttl or s-maxage taken: a year, far past any cache's use and well inside a Duration. */
    private static final BigDecimal MAX_SECONDS = BigDecimal.valueOf(366L * 24 * 3600);

    /**
     * The controls in {@code body}'s {@code cache} field.
     *
     * @throws ApiError 400 when {@code cache} is not an object or one of its fields has the wrong type
     */
    public static CacheControls of(JsonNode body) {
        JsonNode cache = body.get("cache");
        if (cache == null || cache.isNull()) {
            return NONE;
        }
        if (!cache.isObject()) {
            throw invalid("cache", "an object", cache);
        }
        if (cache.isEmpty()) {
            return NONE;
        }
        return new CacheControls(flag(cache, "no-cache").orElse(false), flag(cache, "no-store").orElse(false),
                seconds(cache, "ttl", false), seconds(cache, "s-maxage", true).or(() -> seconds(cache, "s-max-age", true)),
                namespace(cache), flag(cache, "use-cache"));
    }

    private static Optional<Boolean> flag(JsonNode cache, String field) {
        JsonNode value = cache.get(field);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        if (!value.isBoolean()) {
            throw invalid("cache." + field, "a boolean", value);
        }
        return Optional.of(value.booleanValue());
    }

    private static Optional<Duration> seconds(JsonNode cache, String field, boolean zeroAllowed) {
        JsonNode value = cache.get(field);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        if (!value.isNumber()) {
            throw invalid("cache." + field, "a number of seconds", value);
        }
        BigDecimal seconds = value.decimalValue();
        if (seconds.signum() < 0 || (!zeroAllowed && seconds.signum() == 0) || seconds.compareTo(MAX_SECONDS) > 0) {
            throw ApiError.invalidRequest("Invalid value for 'cache." + field + "': expected a number of seconds "
                    + (zeroAllowed ? "from 0" : "above 0") + " to " + MAX_SECONDS + ", but got " + seconds.toPlainString() + ".",
                    "cache." + field, "invalid_value");
        }
        return Optional.of(Duration.ofNanos(seconds.movePointRight(9).longValue()));
    }

    private static Optional<String> namespace(JsonNode cache) {
        JsonNode value = cache.get("namespace");
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        if (!value.isTextual() || !CacheSettings.isNamespace(value.textValue())) {
            throw invalid("cache.namespace", CacheSettings.NAMESPACE_RULE, value);
        }
        return Optional.of(value.textValue());
    }

    private static ApiError invalid(String field, String expected, JsonNode got) {
        return ApiError.invalidRequest("Invalid type for '" + field + "': expected " + expected + ", but got "
                + JsonProblems.typeName(got) + " instead.", field, "invalid_type");
    }
}
