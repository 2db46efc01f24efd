package dev.sluice.call.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.wire.ApiError;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CacheControlsTest {

    @Test
    void aBodyWithoutCacheAsksNothing() {
        assertThat(controls("{}")).isEqualTo(CacheControls.NONE);
        assertThat(controls("{\"cache\":null}")).isEqualTo(CacheControls.NONE);
        assertThat(controls("{\"cache\":{}}")).isEqualTo(CacheControls.NONE);
    }

    @Test
    void everyControlIsRead() {
        CacheControls read = controls("{\"cache\":{\"no-cache\":true,\"no-store\":true,\"ttl\":1.5,\"s-maxage\":0,"
                + "\"namespace\":\"ns\",\"use-cache\":false,\"unknown\":1}}");
        assertThat(read).isEqualTo(new CacheControls(true, true, Optional.of(Duration.ofMillis(1500)),
                Optional.of(Duration.ZERO), Optional.of("ns"), Optional.of(false)));
    }

    @Test
    void aControlOfTheWrongTypeIsA400NamingIt() {
        assertRefused("{\"cache\":true}", "cache");
        assertRefused("{\"cache\":{\"no-cache\":\"yes\"}}", "cache.no-cache");
        assertRefused("{\"cache\":{\"ttl\":\"60\"}}", "cache.ttl");
        assertRefused("{\"cache\":{\"ttl\":0}}", "cache.ttl");
        assertRefused("{\"cache\":{\"s-maxage\":-1}}", "cache.s-maxage");
        assertRefused("{\"cache\":{\"ttl\":1e12}}", "cache.ttl");
        assertRefused("{\"cache\":{\"namespace\":\"\"}}", "cache.namespace");
        assertRefused("{\"cache\":{\"namespace\":\"a\\nb\"}}", "cache.namespace");
        assertRefused("{\"cache\":{\"namespace\":\"été\"}}", "cache.namespace");
        assertRefused("{\"cache\":{\"namespace\":\"" + "n".repeat(257) + "\"}}", "cache.namespace");
        assertRefused("{\"cache\":{\"use-cache\":1}}", "cache.use-cache");
    }

    private static void assertRefused(String body, String param) {
        assertThatThrownBy(() -> controls(body)).isInstanceOfSatisfying(ApiError.class, error -> {
            assertThat(error.status()).isEqualTo(400);
            assertThat(error.param()).isEqualTo(param);
            assertThat(error.getMessage()).contains("'" + param + "'");
        });
    }

    private static CacheControls controls(String body) {
        try {
            return CacheControls.of(Json.parse(body.getBytes(StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new IllegalArgumentException(e);
        }
    }
}
