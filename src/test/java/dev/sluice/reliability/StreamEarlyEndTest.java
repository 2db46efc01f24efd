package dev.sluice.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Chat;
import dev.sluice.testing.Configs;
import dev.sluice.testing.ScriptedUpstream;
import dev.sluice.testing.ScriptedUpstream.Chunk;
import dev.sluice.testing.ScriptedUpstream.End;
import dev.sluice.testing.ScriptedUpstream.Reply;
import dev.sluice.testing.TestGateway;
import dev.sluice.wire.Json;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An upstream stream that ends, however cleanly, before {@code data: [DONE]} or a
 * {@code finish_reason} was cut short: the caller gets the {@code stream_interrupted} error
 * event as for a dropped connection, and the stream is counted as interrupted. A non-streamed
 * call answered with an event stream gets its error as soon as that body ends or breaks.
 */
class StreamEarlyEndTest {
    private static final String INTERRUPTIONS = "sluice_stream_interruptions_total{deployment=\"dep-1\",model_group=\"chat\"}";
    private static final Duration COMMITTED = Duration.ofMillis(200);

    @Test
    void aCloseDelimitedStreamWithoutItsEndIsInterrupted() throws Exception {
        assertInterrupted(Reply.stream(End.CLOSE, Chunk.now(Reply.delta("one")), new Chunk(COMMITTED, Reply.delta(" two"))));
    }

    @Test
    void aCleanChunkedEndWithoutItsEndIsInterrupted() throws Exception {
        assertInterrupted(Reply.stream(End.COMPLETE, Chunk.now(Reply.delta("one")), new Chunk(COMMITTED, Reply.delta(" two"))));
    }

    @Test
    void aStreamWhoseEventsAndEndArriveTogetherIsInterrupted() throws Exception {
        assertInterrupted(Reply.stream(End.CLOSE, Chunk.now(Reply.delta("one") + Reply.delta(" two"))));
    }

    @Test
    void aCloseDelimitedStreamWithDoneIsComplete() throws Exception {
        assertComplete(Reply.stream(End.CLOSE, Chunk.now(Reply.delta("one")),
                new Chunk(COMMITTED, Reply.delta(" two") + "data: [DONE]\n\n")), 3, "[DONE]");
    }

    @Test
    void aStreamWithAFinishReasonAndNoDoneIsComplete() throws Exception {
        assertComplete(Reply.stream(End.COMPLETE, Chunk.now(Reply.delta("one")), new Chunk(COMMITTED, finish("stop"))), 2, "\"stop\"");
    }

    @Test
    void aNonStreamedCallAnsweredWithAStreamThatEndsGetsAnErrorAtItsEnd() throws Exception {
        try (ScriptedUpstream upstream = ScriptedUpstream.always("up", Reply.stream(End.CLOSE,
                Chunk.now(Reply.delta("one")), new Chunk(COMMITTED, Reply.delta(" two") + "data: [DONE]\n\n")));
                TestGateway gateway = TestGateway.start(Configs.singleDeployment(upstream.baseUrl(), ", timeout: 30")
                        + "router_settings: {num_retries: 0}\n")) {
            long started = System.nanoTime();
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("chat", "hi"));

            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
            assertUpstreamError(response);
        }
    }

    @Test
    void aNonStreamedCallAnsweredWithAStreamThatBreaksGetsAnErrorAtTheBreak() throws Exception {
        try (ScriptedUpstream upstream = ScriptedUpstream.always("up", Reply.stream(End.CUT,
                Chunk.now(Reply.delta("one")), new Chunk(COMMITTED, Reply.delta(" two"))));
                TestGateway gateway = TestGateway.start(Configs.singleDeployment(upstream.baseUrl(), ", timeout: 30")
                        + "router_settings: {num_retries: 0}\n")) {
            long started = System.nanoTime();
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("chat", "hi"));

            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
            assertUpstreamError(response);
        }
    }

    @Test
    void aStreamSentWholeToAnHttp10CallerIsAnErrorWithoutItsEnd() throws Exception {
        try (ScriptedUpstream upstream = ScriptedUpstream.always("up", Reply.stream(End.CLOSE, Chunk.now(Reply.delta("one"))));
                TestGateway gateway = TestGateway.start(Configs.singleDeployment(upstream.baseUrl(), "")
                        + "router_settings: {num_retries: 0}\n")) {
            String answer = gateway.rawChat("HTTP/1.0", null, Chat.stream("chat", "hi"));

            assertThat(answer).startsWith("HTTP/1.0 502").contains("without data: [DONE] or a finish_reason")
                    .doesNotContain("\"one\"");
        }
    }

    private static void assertUpstreamError(HttpResponse<String> response) throws Exception {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(502);
        assertThat(Json.parse(response.body().getBytes()).at("/error/message").asText()).isNotEmpty();
        assertThat(Json.parse(response.body().getBytes()).at("/error/type").asText()).isNotEmpty();
        assertThat(response.body()).doesNotContain("internal_error");
    }

    private static void assertInterrupted(Reply reply) throws Exception {
        try (ScriptedUpstream upstream = ScriptedUpstream.always("up", reply);
                TestGateway gateway = TestGateway.start(Configs.singleDeployment(upstream.baseUrl(), ""))) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.stream("chat", "hi"));

            assertThat(response.statusCode()).isEqualTo(200);
            List<String> events = events(response.body());
            assertThat(events).hasSize(3);
            assertThat(events.get(0)).contains("one");
            assertThat(events.get(1)).contains(" two");
            assertThat(Json.parse(events.get(2).getBytes()).at("/error/code").asText()).isEqualTo("stream_interrupted");
            assertThat(events.get(2)).contains("without data: [DONE] or a finish_reason");
            assertThat(events).doesNotContain("[DONE]");
            gateway.awaitMetric("the stream counted as interrupted", INTERRUPTIONS, 1.0);
        }
    }

    private static void assertComplete(Reply reply, int count, String last) {
        try (ScriptedUpstream upstream = ScriptedUpstream.always("up", reply);
                TestGateway gateway = TestGateway.start(Configs.singleDeployment(upstream.baseUrl(), ""))) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.stream("chat", "hi"));

            assertThat(response.statusCode()).isEqualTo(200);
            List<String> events = events(response.body());
            assertThat(events).hasSize(count);
            assertThat(events.getLast()).contains(last);
            assertThat(response.body()).doesNotContain("stream_interrupted");
            gateway.awaitMetric("the request counted", "sluice_requests_total{route=\"chat_completions\",status_code=\"200\"}", 1.0);
            assertThat(gateway.metric(INTERRUPTIONS)).isZero();
        }
    }

    private static String finish(String reason) {
        return "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,"
                + "\"delta\":{\"content\":\" two\"},\"finish_reason\":\"" + reason + "\"}]}\n\n";
    }

    private static List<String> events(String body) {
        return body.lines().filter(line -> line.startsWith("data: ")).map(line -> line.substring(6)).toList();
    }
}
