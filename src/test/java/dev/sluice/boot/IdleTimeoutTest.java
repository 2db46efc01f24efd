package dev.sluice.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.ConfigLoader;
import dev.sluice.config.RouterSettings;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A connection's idle timeout outlasts the longest silent wait a call may have: a caller
 * allowed a longer timeout than the router's must not have its connection closed under it.
 */
class IdleTimeoutTest {

    @Test
    void itIsSixtySecondsPastTheLongerOfTheRoutersTimeoutAndTheLongestACallerMayAskFor() throws Exception {
        assertThat(GatewayVerticle.idleTimeout(router(""))).as("defaults: timeout 600 s").isEqualTo(Duration.ofSeconds(660));
        assertThat(GatewayVerticle.idleTimeout(router("timeout: 30"))).as("max_client_timeout follows timeout")
                .isEqualTo(Duration.ofSeconds(90));
        assertThat(GatewayVerticle.idleTimeout(router("timeout: 30\n  max_client_timeout: 900")))
                .isEqualTo(Duration.ofSeconds(960));
        assertThat(GatewayVerticle.idleTimeout(router("timeout: 300\n  max_client_timeout: 10")))
                .isEqualTo(Duration.ofSeconds(360));
    }

    private static RouterSettings router(String lines) throws Exception {
        String yaml = """
                model_list:
                  - {model_name: g, litellm_params: {model: openai/a, api_base: "http://127.0.0.1:1/v1"}}
                router_settings:
                  %s
                """.formatted(lines.isEmpty() ? "num_retries: 2" : lines);
        return ConfigLoader.parse(yaml, Map.of(), Set.of("openai")).router();
    }
}
