package dev.sluice.ops.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.sluice.testing.Chat;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Spans as a collector receives them: the gateway exports over OTLP/HTTP to a real receiver on
 * loopback, which decodes the protobuf messages. A failed attempt's span says so, whatever the
 * request's answer; a request answered 5xx is an error, one answered 200 after a failover is not.
 */
class TracingTest {
    private final List<Span> received = new CopyOnWriteArrayList<>();
    private final List<String> services = new CopyOnWriteArrayList<>();
    private HttpServer collector;

    @BeforeEach
    void startCollector() throws Exception {
        collector = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        collector.createContext("/v1/traces", exchange -> {
            try (InputStream body = exchange.getRequestBody()) {
                ExportTraceServiceRequest export = ExportTraceServiceRequest.parseFrom(body.readAllBytes());
                export.getResourceSpansList().forEach(resource -> {
                    resource.getResource().getAttributesList().stream().filter(a -> a.getKey().equals("service.name"))
                            .forEach(a -> services.add(a.getValue().getStringValue()));
                    resource.getScopeSpansList().forEach(scope -> received.addAll(scope.getSpansList()));
                });
            }
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        collector.start();
    }

    @AfterEach
    void stopCollector() {
        collector.stop(0);
    }

    private Map<String, String> env() {
        return Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:" + collector.getAddress().getPort(),
                "OTEL_SERVICE_NAME", "sluice-under-test");
    }

    @Test
    void aFailedAttemptIsAnErrorSpanUnderARequestThatSucceededAndAFailedRequestIsAnError() throws Exception {
        try (MockUpstream failing = MockUpstream.start(MockOptions.defaults("failing", MockMode.FAIL));
                MockUpstream backup = MockUpstream.start(MockOptions.defaults("backup", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %1$s, weight: 1000}, model_info: {id: failing}}
                          - {model_name: g, litellm_params: {model: openai/b, api_base: %2$s, weight: 1}, model_info: {id: backup}}
                          - {model_name: down, litellm_params: {model: openai/c, api_base: %1$s}, model_info: {id: down-1}}
                        router_settings: {num_retries: 1, allowed_fails: 100}
                        """.formatted(failing.baseUrl(), backup.baseUrl()), env())) {
            HttpResponse<String> failedOver = gateway.post("/v1/chat/completions", Chat.body("g", "hi"));
            assertThat(failedOver.statusCode()).isEqualTo(200);
            HttpResponse<String> failed = gateway.post("/v1/chat/completions", Chat.body("down", "hi"),
                    "x-litellm-call-id", "call-that-fails");
            assertThat(failed.statusCode()).isEqualTo(500);

            Eventually.until("the spans of both calls are exported", Duration.ofSeconds(10), () -> received.size() >= 6);
            assertThat(services).contains("sluice-under-test");

            String firstCall = failedOver.headers().firstValue("x-litellm-call-id").orElseThrow();
            Span request = serverSpan(firstCall);
            assertThat(request.getName()).isEqualTo("POST /v1/chat/completions");
            assertThat(longAttribute(request, "http.response.status_code")).hasValue(200L);
            assertThat(request.getStatus().getCode()).isNotEqualTo(Status.StatusCode.STATUS_CODE_ERROR);
            assertThat(request.getEventsList()).extracting(Span.Event::getName).contains("failover");

            List<Span> attempts = children(request);
            assertThat(attempts).extracting(Span::getName).containsExactly("upstream failing", "upstream backup");
            Span failedAttempt = attempts.get(0);
            assertThat(failedAttempt.getKind()).isEqualTo(Span.SpanKind.SPAN_KIND_CLIENT);
            assertThat(longAttribute(failedAttempt, "http.response.status_code")).hasValue(500L);
            assertThat(failedAttempt.getStatus().getCode()).isEqualTo(Status.StatusCode.STATUS_CODE_ERROR);
            assertThat(failedAttempt.getEventsList()).anySatisfy(event -> {
                assertThat(event.getName()).isEqualTo("exception");
                assertThat(stringAttribute(event.getAttributesList(), "exception.type")).hasValue("server");
            });
            assertThat(stringAttribute(failedAttempt.getAttributesList(), "sluice.model_group")).hasValue("g");
            assertThat(attempts.get(1).getStatus().getCode()).isNotEqualTo(Status.StatusCode.STATUS_CODE_ERROR);
            assertThat(attempts.get(1).getEndTimeUnixNano()).isGreaterThanOrEqualTo(attempts.get(1).getStartTimeUnixNano());

            Span failedRequest = serverSpan("call-that-fails");
            assertThat(longAttribute(failedRequest, "http.response.status_code")).hasValue(500L);
            assertThat(failedRequest.getStatus().getCode()).isEqualTo(Status.StatusCode.STATUS_CODE_ERROR);
            assertThat(children(failedRequest)).hasSize(2).allSatisfy(attempt -> {
                assertThat(longAttribute(attempt, "http.response.status_code")).hasValue(500L);
                assertThat(attempt.getStatus().getCode()).isEqualTo(Status.StatusCode.STATUS_CODE_ERROR);
            });
            assertThat(failedRequest.getEventsList()).extracting(Span.Event::getName).contains("retry");
        }
    }

    @Test
    void aCallersTraceparentIsJoinedAndEachAttemptIsTheParentOfWhatItsUpstreamRecords() throws Exception {
        List<String> upstreamTraceparents = new CopyOnWriteArrayList<>();
        List<String> upstreamTracestates = new CopyOnWriteArrayList<>();
        HttpServer upstream = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        upstream.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            upstreamTraceparents.add(String.valueOf(exchange.getRequestHeaders().getFirst("traceparent")));
            upstreamTracestates.add(String.valueOf(exchange.getRequestHeaders().getFirst("tracestate")));
            byte[] answer = """
                    {"id":"c","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":\
                    {"role":"assistant","content":"ok"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}"""
                    .getBytes(java.nio.charset.StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        upstream.start();
        String callerTrace = "4bf92f3577b34da6a3ce929d0e0e4736";
        String callerSpan = "00f067aa0ba902b7";
        try (TestGateway gateway = TestGateway.start("""
                model_list:
                  - {model_name: g, litellm_params: {model: openai/a, api_base: http://127.0.0.1:%d/v1}}
                """.formatted(upstream.getAddress().getPort()), env())) {
            gateway.post("/v1/chat/completions", Chat.body("g", "hi"), "x-litellm-call-id", "joined",
                    "traceparent", "00-" + callerTrace + "-" + callerSpan + "-01", "tracestate", "vendor=abc");
            gateway.post("/v1/chat/completions", Chat.body("g", "hi"), "x-litellm-call-id", "own");
            gateway.post("/v1/chat/completions", Chat.body("g", "hi"), "x-litellm-call-id", "garbled",
                    "traceparent", "00-not-a-trace-01");

            Eventually.until("the spans of the three calls are exported", Duration.ofSeconds(10), () -> received.size() >= 6);
            Span joined = serverSpan("joined");
            assertThat(java.util.HexFormat.of().formatHex(joined.getTraceId().toByteArray())).isEqualTo(callerTrace);
            assertThat(java.util.HexFormat.of().formatHex(joined.getParentSpanId().toByteArray())).isEqualTo(callerSpan);
            Span attempt = children(joined).getFirst();
            assertThat(upstreamTraceparents.getFirst()).as("the attempt's span is the upstream's parent")
                    .isEqualTo("00-" + callerTrace + "-" + java.util.HexFormat.of().formatHex(attempt.getSpanId().toByteArray()) + "-01");
            assertThat(upstreamTracestates.getFirst()).isEqualTo("vendor=abc");

            for (String callId : List.of("own", "garbled")) {
                Span own = serverSpan(callId);
                assertThat(own.getParentSpanId().isEmpty()).as("%s starts a trace of its own", callId).isTrue();
                assertThat(own.getTraceId()).isNotEqualTo(joined.getTraceId());
            }
            assertThat(upstreamTraceparents.get(1)).startsWith("00-" + java.util.HexFormat.of().formatHex(
                    serverSpan("own").getTraceId().toByteArray()) + "-");
            assertThat(upstreamTracestates.get(1)).isEqualTo("null");
        } finally {
            upstream.stop(0);
        }
    }

    @Test
    void withoutAnEndpointNothingIsExported() throws Exception {
        assertThat(OtlpSetup.fromEnv(Map.of())).isEmpty();
        assertThat(OtlpSetup.tracesEndpoint(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318/"))).hasValue("http://c:4318/v1/traces");
        assertThat(OtlpSetup.tracesEndpoint(Map.of("OTEL_ENDPOINT", "http://c:4318"))).hasValue("http://c:4318/v1/traces");
        assertThat(OtlpSetup.tracesEndpoint(Map.of("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://c/t",
                "OTEL_EXPORTER_OTLP_ENDPOINT", "http://other"))).hasValue("http://c/t");
        assertThat(OtlpSetup.headers("api-key=abc, x=1,broken")).containsExactly(Map.entry("api-key", "abc"), Map.entry("x", "1"));
    }

    private Span serverSpan(String callId) {
        return received.stream()
                .filter(span -> span.getKind() == Span.SpanKind.SPAN_KIND_SERVER)
                .filter(span -> stringAttribute(span.getAttributesList(), "sluice.call_id").equals(Optional.of(callId)))
                .findFirst().orElseThrow(() -> new AssertionError("no request span for " + callId + " in " + received));
    }

    private List<Span> children(Span parent) {
        return received.stream()
                .filter(span -> span.getTraceId().equals(parent.getTraceId()) && span.getParentSpanId().equals(parent.getSpanId()))
                .sorted(java.util.Comparator.comparingLong(Span::getStartTimeUnixNano))
                .toList();
    }

    private static Optional<Long> longAttribute(Span span, String key) {
        return span.getAttributesList().stream().filter(a -> a.getKey().equals(key)).map(a -> a.getValue().getIntValue()).findFirst();
    }

    private static Optional<String> stringAttribute(List<KeyValue> attributes, String key) {
        return attributes.stream().filter(a -> a.getKey().equals(key)).map(a -> a.getValue().getStringValue()).findFirst();
    }
}
