package dev.sluice.ops.callbacks;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.sluice.testing.Chat;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.GatewayProcess;
import dev.sluice.testing.ScriptedUpstream;
import dev.sluice.testing.ScriptedUpstream.Reply;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.Span;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The built jar's logging callbacks against real receivers on loopback: the generic API
 * logger's receiver, Langfuse's ingestion API and an OTLP collector each get what a served
 * call and a failed one did; a receiver that is down slows no call, and what could not be
 * delivered is counted in {@code /metrics}.
 */
class CallbacksIT {
    private static final Duration WAIT = Duration.ofSeconds(30);

    private static String config(String served, String failing, String callbacks) {
        return """
                model_list:
                  - model_name: chat
                    litellm_params: {model: openai/gpt-4o-mini, api_base: "%s", api_key: sk-upstream-key-0001}
                    model_info: {id: dep-served}
                  - model_name: broken
                    litellm_params: {model: openai/gpt-4o, api_base: "%s", api_key: sk-upstream-key-0001}
                    model_info: {id: dep-broken}
                router_settings: {num_retries: 0}
                litellm_settings:
                  callbacks: %s
                """.formatted(served, failing, callbacks);
    }

    @Test
    void eachReceiverGetsWhatAServedAndAFailedCallDid(@TempDir Path dir) throws Exception {
        List<Span> spans = new CopyOnWriteArrayList<>();
        HttpServer collector = collector(spans);
        try (Receiver generic = Receiver.start();
                Receiver langfuse = Receiver.start();
                Receiver langfuseOtel = Receiver.start();
                ScriptedUpstream served = ScriptedUpstream.always("up", Reply.completion("hello there"));
                ScriptedUpstream failing = ScriptedUpstream.always("down", Reply.status(503));
                GatewayProcess gateway = GatewayProcess.start("callbacks", config(served.baseUrl(), failing.baseUrl(),
                        "[generic_api, langfuse, otel, langfuse_otel]"), dir, Map.of(
                        "GENERIC_LOGGER_ENDPOINT", generic.url("/logs"),
                        "GENERIC_LOGGER_HEADERS", "X-Team=blue,Authorization=Bearer receiver-token",
                        "LANGFUSE_PUBLIC_KEY", "pk-lf-test",
                        "LANGFUSE_SECRET_KEY", "sk-lf-test-secret",
                        "LANGFUSE_HOST", langfuse.url(""),
                        "LANGFUSE_OTEL_HOST", langfuseOtel.url(""),
                        "OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:" + collector.getAddress().getPort()))) {
            HttpResponse<String> ok = gateway.post("/v1/chat/completions",
                    "{\"model\":\"chat\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"temperature\":0.2,\"max_tokens\":32}",
                    "x-litellm-call-id", "served-1");
            HttpResponse<String> failed = gateway.post("/v1/chat/completions", Chat.body("broken", "hi"),
                    "x-litellm-call-id", "failed-1");
            assertThat(ok.statusCode()).isEqualTo(200);
            assertThat(failed.statusCode()).isEqualTo(503);

            JsonNode success = Eventually.value("generic_api: the served call", WAIT, () -> generic.payload("served-1"));
            assertThat(success.path("status").asText()).isEqualTo("success");
            assertThat(success.path("model_id").asText()).isEqualTo("dep-served");
            assertThat(success.path("custom_llm_provider").asText()).isEqualTo("openai");
            assertThat(success.path("total_tokens").asLong()).isEqualTo(2);
            assertThat(success.path("response").path("choices").get(0).path("message").path("content").asText())
                    .isEqualTo("hello there");
            JsonNode failure = Eventually.value("generic_api: the failed call", WAIT, () -> generic.payload("failed-1"));
            assertThat(failure.path("status").asText()).isEqualTo("failure");
            assertThat(failure.path("model_id").asText()).isEqualTo("dep-broken");
            assertThat(failure.path("error_information").path("error_class").asText()).isEqualTo("ServiceUnavailableError");
            assertThat(failure.path("error_information").path("error_code").asText()).isEqualTo("503");
            assertThat(generic.posts()).allSatisfy(post -> {
                assertThat(post.custom()).isEqualTo("blue");
                assertThat(post.authorization()).isEqualTo("Bearer receiver-token");
            });

            Eventually.until("langfuse: both calls' traces and generations", WAIT, () -> langfuseEvents(langfuse).size() >= 4);
            String basic = "Basic " + Base64.getEncoder().encodeToString("pk-lf-test:sk-lf-test-secret".getBytes(StandardCharsets.UTF_8));
            assertThat(langfuse.posts()).allSatisfy(post -> {
                assertThat(post.path()).isEqualTo("/api/public/ingestion");
                assertThat(post.authorization()).isEqualTo(basic);
            });
            JsonNode generation = langfuseEvents(langfuse).stream()
                    .filter(e -> e.path("type").asText().equals("generation-create") && e.path("body").path("id").asText().equals("failed-1"))
                    .findFirst().orElseThrow();
            assertThat(generation.path("body").path("level").asText()).isEqualTo("ERROR");
            assertThat(langfuseEvents(langfuse)).anySatisfy(e -> {
                assertThat(e.path("type").asText()).isEqualTo("trace-create");
                assertThat(e.path("body").path("id").asText()).isEqualTo("served-1");
            });

            Eventually.until("langfuse_otel: both calls' spans", WAIT, () -> langfuseOtel.posts().stream()
                    .mapToInt(post -> post.body().path("resourceSpans").path(0).path("scopeSpans").path(0).path("spans").size()).sum() >= 2);
            assertThat(langfuseOtel.posts()).allSatisfy(post -> {
                assertThat(post.path()).isEqualTo("/api/public/otel/v1/traces");
                assertThat(post.authorization()).isEqualTo(basic);
            });

            Span request = Eventually.value("otel: the served call's span", WAIT, () -> serverSpan(spans, "served-1"));
            assertThat(string(request, "gen_ai.system")).hasValue("openai");
            assertThat(string(request, "gen_ai.operation.name")).hasValue("chat");
            assertThat(string(request, "gen_ai.request.model")).hasValue("chat");
            assertThat(string(request, "gen_ai.response.model")).hasValue("m");
            assertThat(number(request, "gen_ai.usage.input_tokens")).hasValue(1L);
            assertThat(number(request, "gen_ai.usage.output_tokens")).hasValue(1L);
            assertThat(number(request, "gen_ai.request.max_tokens")).hasValue(32L);
            assertThat(request.getAttributesList()).anySatisfy(a -> {
                assertThat(a.getKey()).isEqualTo("gen_ai.response.finish_reasons");
                assertThat(a.getValue().getArrayValue().getValues(0).getStringValue()).isEqualTo("stop");
            });
            Span failedSpan = Eventually.value("otel: the failed call's span", WAIT, () -> serverSpan(spans, "failed-1"));
            assertThat(string(failedSpan, "error.type")).hasValue("ServiceUnavailableError");
            assertThat(string(failedSpan, "gen_ai.request.model")).hasValue("broken");

            String everything = generic.posts() + " " + langfuse.posts() + " " + langfuseOtel.posts() + " " + spans;
            assertThat(everything).doesNotContain("sk-upstream-key-0001");
        } finally {
            collector.stop(0);
        }
    }

    @Test
    void aReceiverThatIsDownSlowsNoCallAndWhatFailedIsCounted(@TempDir Path dir) throws Exception {
        int refused;
        try (ServerSocket socket = new ServerSocket(0)) {
            refused = socket.getLocalPort();
        }
        try (ScriptedUpstream served = ScriptedUpstream.always("up", Reply.completion("fine"));
                GatewayProcess gateway = GatewayProcess.start("down-receiver", config(served.baseUrl(), served.baseUrl(),
                        "[generic_api]"), dir, Map.of("GENERIC_LOGGER_ENDPOINT", "http://127.0.0.1:" + refused + "/logs"))) {
            for (int i = 0; i < 20; i++) {
                long started = System.nanoTime();
                HttpResponse<String> answer = gateway.post("/v1/chat/completions", Chat.body("chat", "hi " + i));
                assertThat(answer.statusCode()).isEqualTo(200);
                assertThat(Duration.ofNanos(System.nanoTime() - started)).as("call %d", i).isLessThan(Duration.ofSeconds(2));
            }

            Eventually.until("the undelivered records are counted as failed", WAIT,
                    () -> gateway.metric("sluice_callback_failed_total{callback=\"generic_api\"}") == 20);
            assertThat(gateway.metric("sluice_callback_sent_total{callback=\"generic_api\"}")).isZero();
            assertThat(gateway.output()).contains("callback.delivery_failed callback=generic_api");
        }
    }

    private static List<JsonNode> langfuseEvents(Receiver langfuse) {
        return langfuse.posts().stream().flatMap(post -> {
            List<JsonNode> events = new java.util.ArrayList<>();
            post.body().path("batch").forEach(events::add);
            return events.stream();
        }).toList();
    }

    private static HttpServer collector(List<Span> spans) throws Exception {
        HttpServer collector = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        collector.createContext("/v1/traces", exchange -> {
            try (InputStream body = exchange.getRequestBody()) {
                ExportTraceServiceRequest.parseFrom(body.readAllBytes()).getResourceSpansList()
                        .forEach(resource -> resource.getScopeSpansList().forEach(scope -> spans.addAll(scope.getSpansList())));
            }
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        collector.start();
        return collector;
    }

    private static Optional<Span> serverSpan(List<Span> spans, String callId) {
        return spans.stream().filter(span -> span.getKind() == Span.SpanKind.SPAN_KIND_SERVER
                && string(span, "sluice.call_id").equals(Optional.of(callId))).findFirst();
    }

    private static Optional<String> string(Span span, String key) {
        return span.getAttributesList().stream().filter(a -> a.getKey().equals(key)).findFirst()
                .map(KeyValue::getValue).map(v -> v.getStringValue());
    }

    private static Optional<Long> number(Span span, String key) {
        return span.getAttributesList().stream().filter(a -> a.getKey().equals(key)).findFirst()
                .map(KeyValue::getValue).map(v -> v.getIntValue());
    }
}
