package dev.sluice.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Chat;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.RecordingEvents;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A caller that hangs up stops the request; it says nothing about the deployment. */
class HangUpTest {

    @Test
    void hangUpDuringAnAttemptIsNotCountedAgainstTheDeploymentAndStopsTheLoop() throws Exception {
        RecordingEvents events = new RecordingEvents();
        try (MockUpstream hanging = MockUpstream.start(MockOptions.defaults("hanging", MockMode.HANG));
                MockUpstream other = MockUpstream.start(MockOptions.defaults("other", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s}, model_info: {id: hanging}}
                          - {model_name: g, litellm_params: {model: openai/b, api_base: %s, weight: 0}, model_info: {id: other}}
                        router_settings: {allowed_fails: 0}
                        """.formatted(hanging.baseUrl(), other.baseUrl()), Map.of(), events)) {
            String body = Chat.body("g", "hi");
            try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), gateway.port())) {
                OutputStream out = socket.getOutputStream();
                out.write(("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
                        + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body).getBytes(StandardCharsets.UTF_8));
                out.flush();
                Eventually.until("the call reaches the hanging upstream", Duration.ofSeconds(5), () -> hanging.requests() >= 1);
            }
            // The call is over once the gateway saw the hang-up, let the upstream go and released the attempt.
            Eventually.until("the upstream sees the call given up", Duration.ofSeconds(5), () -> hanging.cancelledStreams() == 1);
            gateway.awaitMetric("the attempt is released", "sluice_deployment_in_flight{deployment=\"hanging\",model_group=\"g\"}", 0.0);
            gateway.awaitMetric("the call is over", "sluice_requests_in_flight", 0.0);

            assertThat(hanging.requests()).isEqualTo(1);
            assertThat(other.requests()).as("no failover for a caller who left").isZero();
            assertThat(events.brief()).containsExactly("attempt hanging");
        }
    }
}
