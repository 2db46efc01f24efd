package dev.sluice.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Chat;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.ScriptedUpstream;
import dev.sluice.testing.ScriptedUpstream.Reply;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * An upstream's error body is read only as far as it is of use: the first 64 KiB, after which
 * the connection is closed. An error body that never ends is still a 500, acted on at once,
 * not an answer the gateway waits on until the deployment's deadline (30 s here) and then
 * calls a timeout.
 */
class ErrorBodyBoundTest {

    @Test
    void anEndlessErrorBodyIsCutAt64KibAndTheRequestFailsOverAtOnce() throws Exception {
        try (ScriptedUpstream endless = ScriptedUpstream.always("endless", Reply.endlessError());
                MockUpstream sibling = MockUpstream.start(MockOptions.defaults("sibling", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s, weight: 1000}, model_info: {id: endless}}
                          - {model_name: g, litellm_params: {model: openai/b, api_base: %s, weight: 0}, model_info: {id: sibling}}
                          - {model_name: alone, litellm_params: {model: openai/c, api_base: %1$s}, model_info: {id: endless-alone}}
                        router_settings: {timeout: 30, num_retries: 1, allowed_fails: 100}
                        """.formatted(endless.baseUrl(), sibling.baseUrl()))) {
            long start = System.nanoTime();
            HttpResponse<String> served = gateway.post("/v1/chat/completions", Chat.body("g", "hi"));
            assertThat(served.statusCode()).as(served.body()).isEqualTo(200);
            assertThat(served.headers().firstValue("x-litellm-model-id")).hasValue("sibling");

            HttpResponse<String> failed = gateway.post("/v1/chat/completions",
                    Chat.body("alone", "hi").replace("}]}", "}],\"num_retries\":0}"));
            long took = Duration.ofNanos(System.nanoTime() - start).toMillis();

            assertThat(failed.statusCode()).as(failed.body()).isEqualTo(500);
            assertThat(failed.body()).contains("boom");
            assertThat(took).as("ms for both: neither waited for the 30 s deadline").isLessThan(10_000);
            Eventually.until("the gateway closed both endless bodies", Duration.ofSeconds(5), () -> endless.closedByCaller() == 2);
            assertThat(endless.calls()).isEqualTo(2);
        }
    }
}
