package dev.sluice.edge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.store.SpendRepository;
import dev.sluice.testing.Chat;
import dev.sluice.testing.Configs;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.FakeTime;
import dev.sluice.testing.RecordingEvents;
import dev.sluice.testing.ScriptedUpstream.Reply;
import dev.sluice.testing.ScriptedUpstream;
import dev.sluice.testing.TestDatabase;
import dev.sluice.testing.TestDatabases;
import dev.sluice.testing.TestGateway;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A gateway told to stop ({@code SIGTERM}, {@link TestGateway#drain}) keeps listening but
 * answers every new call 503 while it drains, lets the calls in flight finish within the drain
 * deadline, and then ends what is left: a stream with the {@code stream_interrupted} error event, any other call with a 503
 * in the OpenAI error shape. None of it counts against the deployments.
 */
class DrainTest {

    @Test
    void aStreamInFlightFinishesWithDoneWhileNewConnectionsAreAnswered503() throws Exception {
        try (ScriptedUpstream upstream = ScriptedUpstream.always("up", Reply.heldStream("up", Duration.ofSeconds(3)));
                TestGateway gateway = TestGateway.start(Configs.singleDeployment(upstream.baseUrl(), ""))) {
            CompletableFuture<HttpResponse<String>> stream = send(gateway, Chat.stream("chat", "hi"));
            Eventually.until("the stream is under way", Duration.ofSeconds(5), () -> upstream.open() == 1);

            long started = System.nanoTime();
            Thread draining = Thread.ofVirtual().start(() -> gateway.drain(Duration.ofSeconds(20)));
            Eventually.until("a new connection gets readiness 503", Duration.ofSeconds(5),
                    () -> readinessOnNewConnection(gateway.port()).startsWith("HTTP/1.1 503"));
            assertThat(upstream.open()).as("answered while the stream was still open").isEqualTo(1);

            HttpResponse<String> answer = stream.get(20, TimeUnit.SECONDS);
            assertThat(draining.join(Duration.ofSeconds(20))).isTrue();
            assertThat(answer.statusCode()).isEqualTo(200);
            assertThat(answer.body()).contains("[up] first").contains(" last").contains("data: [DONE]")
                    .doesNotContain("stream_interrupted");
            assertThat(Duration.ofNanos(System.nanoTime() - started)).as("the drain ended with the stream, not at its deadline")
                    .isLessThan(Duration.ofSeconds(15));
            assertThat(refused(gateway.port())).as("the listener closes once the drain is over").isTrue();
        }
    }

    @Test
    void callsStillOpenAtTheDeadlineAreCutWithoutBlamingTheirDeployments() throws Exception {
        RecordingEvents events = new RecordingEvents(new FakeTime());
        try (ScriptedUpstream streaming = ScriptedUpstream.always("streaming", Reply.heldStream("streaming", Duration.ofSeconds(60)));
                ScriptedUpstream hanging = ScriptedUpstream.always("hanging", Reply.hang());
                ScriptedUpstream spare = ScriptedUpstream.start("spare");
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: s, litellm_params: {model: openai/a, api_base: %s}, model_info: {id: s1}}
                          - {model_name: w, litellm_params: {model: openai/b, api_base: %s}, model_info: {id: w1}}
                          - {model_name: w, litellm_params: {model: openai/c, api_base: %s, weight: 0}, model_info: {id: w2}}
                        router_settings: {timeout: 120}
                        """.formatted(streaming.baseUrl(), hanging.baseUrl(), spare.baseUrl()), Map.of(), events)) {
            CompletableFuture<HttpResponse<String>> stream = send(gateway, Chat.stream("s", "hi"));
            CompletableFuture<HttpResponse<String>> whole = send(gateway, Chat.body("w", "hi"));
            Eventually.until("both calls are upstream", Duration.ofSeconds(5), () -> streaming.open() == 1 && hanging.open() == 1);

            gateway.drain(Duration.ofMillis(300));

            HttpResponse<String> cutStream = stream.get(10, TimeUnit.SECONDS);
            List<String> data = cutStream.body().lines().filter(l -> l.startsWith("data: ")).map(l -> l.substring(6)).toList();
            assertThat(data.getFirst()).contains("[streaming] first");
            assertThat(Json.parse(data.getLast().getBytes()).at("/error/code").asText()).isEqualTo("stream_interrupted");
            assertThat(data.getLast()).contains("drain deadline");
            assertThat(data).doesNotContain("[DONE]");

            HttpResponse<String> cutCall = whole.get(10, TimeUnit.SECONDS);
            assertThat(cutCall.statusCode()).isEqualTo(503);
            assertThat(cutCall.headers().firstValue("retry-after")).isPresent();
            assertThat(Json.parse(cutCall.body().getBytes()).at("/error/code").asText()).isEqualTo("shutting_down");
            assertThat(spare.calls()).as("no failover to another deployment").isZero();

            Eventually.until("the waiting upstream call is closed", Duration.ofSeconds(5), () -> hanging.closedByCaller() == 1);
            assertThat(events.lines()).noneMatch(line -> line.contains("failed ") || line.contains("stream-cut")
                    || line.contains("bench") || line.contains("failover") || line.contains("retry"));
        }
    }

    @Test
    void onceDrainingReadinessAndEveryNewCallAnswer503WithRetryAfterAndConnectionClose() throws Exception {
        try (ScriptedUpstream upstream = ScriptedUpstream.start("up");
                TestGateway gateway = TestGateway.start(Configs.singleDeployment(upstream.baseUrl(), ""))) {
            assertThat(gateway.get("/health/readiness").statusCode()).isEqualTo(200);

            gateway.refuseNewCalls();

            HttpResponse<String> ready = gateway.get("/health/readiness");
            assertThat(ready.statusCode()).isEqualTo(503);
            assertThat(Json.parse(ready.body().getBytes()).at("/error/code").asText()).isEqualTo("shutting_down");
            HttpResponse<String> call = gateway.post("/v1/chat/completions", Chat.body("chat", "hi"));
            assertThat(call.statusCode()).isEqualTo(503);
            assertThat(call.headers().firstValue("retry-after")).hasValue("1");
            assertThat(call.headers().firstValue("connection")).hasValue("close");
            assertThat(Json.parse(call.body().getBytes()).at("/error/type").asText()).isEqualTo("service_unavailable");
            assertThat(Json.parse(call.body().getBytes()).at("/error/code").asText()).isEqualTo("shutting_down");
            assertThat(upstream.calls()).isZero();
            assertThat(gateway.get("/health/liveliness").statusCode()).isEqualTo(200);
        }
    }

    @Test
    void callsCutAtTheDeadlineAreLoggedAs503NotAs200() throws Exception {
        try (TestDatabase store = TestDatabases.postgres();
                ScriptedUpstream streaming = ScriptedUpstream.always("streaming", Reply.heldStream("streaming", Duration.ofSeconds(60)));
                ScriptedUpstream hanging = ScriptedUpstream.always("hanging", Reply.hang());
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: s, litellm_params: {model: openai/a, api_base: %s}, model_info: {id: s1}}
                          - {model_name: w, litellm_params: {model: openai/b, api_base: %s}, model_info: {id: w1}}
                        general_settings:
                          master_key: sk-1234
                          %s
                        """.formatted(streaming.baseUrl(), hanging.baseUrl(), store.generalSetting()))) {
            CompletableFuture<HttpResponse<String>> stream = send(gateway, Chat.stream("s", "hi"), "Authorization", "Bearer sk-1234");
            CompletableFuture<HttpResponse<String>> whole = send(gateway, Chat.body("w", "hi"), "Authorization", "Bearer sk-1234");
            Eventually.until("both calls are upstream", Duration.ofSeconds(5), () -> streaming.open() == 1 && hanging.open() == 1);

            gateway.drain(Duration.ofMillis(300));

            SpendRepository spendLog = new SpendRepository(store.database());
            for (HttpResponse<String> cut : List.of(stream.get(10, TimeUnit.SECONDS), whole.get(10, TimeUnit.SECONDS))) {
                String callId = cut.headers().firstValue("x-litellm-call-id").orElseThrow();
                Eventually.until("the cut call's spend row is written", Duration.ofSeconds(10),
                        () -> spendLog.find(callId).isPresent());
                assertThat(spendLog.find(callId).orElseThrow().status()).as(cut.body()).isEqualTo(503);
            }
        }
    }

    private static CompletableFuture<HttpResponse<String>> send(TestGateway gateway, String body, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(gateway.uri("/v1/chat/completions"))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return gateway.client().sendAsync(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The status line of {@code GET /health/readiness} sent on a connection of its own. */
    private static String readinessOnNewConnection(int port) {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(5000);
            socket.getOutputStream().write("GET /health/readiness HTTP/1.1\r\nHost: x\r\n\r\n".getBytes());
            byte[] head = socket.getInputStream().readNBytes(12);
            return new String(head);
        } catch (IOException e) {
            throw new AssertionError("a connection during the drain was not answered", e);
        }
    }

    private static boolean refused(int port) {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }
}
