package dev.sluice.ops.tracing;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporterBuilder;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * Tracing as the environment asks for it: spans go over OTLP/HTTP (protobuf) to the endpoint
 * OpenTelemetry's variables name, or LiteLLM's; without one there is no tracing at all, and no
 * cost on the request path.
 *
 * <ul>
 *   <li>{@code OTEL_EXPORTER_OTLP_TRACES_ENDPOINT}: the full URL of the traces route; else
 *       {@code OTEL_EXPORTER_OTLP_ENDPOINT} (or LiteLLM's {@code OTEL_ENDPOINT}) with
 *       {@code /v1/traces} after it;</li>
 *   <li>{@code OTEL_EXPORTER_OTLP_HEADERS} (or {@code OTEL_HEADERS}): {@code name=value} pairs
 *       separated by commas, sent with every export (an API key for a hosted collector);</li>
 *   <li>{@code OTEL_SERVICE_NAME}: the service the spans belong to; {@code sluice} by default.</li>
 * </ul>
 * With the {@code otel} logging callback configured and no endpoint named, spans go to
 * OpenTelemetry's default collector address, {@value #DEFAULT_ENDPOINT}.
 */
public final class OtlpSetup {
    private static final AttributeKey<String> SERVICE_NAME = AttributeKey.stringKey("service.name");
    /** Where OpenTelemetry's exporters send OTLP/HTTP when told nothing else. */
    static final String DEFAULT_ENDPOINT = "http://localhost:4318/v1/traces";

    private OtlpSetup() {}

    /** The tracing {@code env} configures, or empty when it names no endpoint. */
    public static Optional<GatewayTracing> fromEnv(Map<String, String> env) {
        return fromEnv(env, false);
    }

    /**
     * Like {@link #fromEnv(Map)}; with {@code wanted} (the {@code otel} callback is configured)
     * tracing is on even when {@code env} names no endpoint, to {@value #DEFAULT_ENDPOINT}.
     */
    public static Optional<GatewayTracing> fromEnv(Map<String, String> env, boolean wanted) {
        Optional<String> endpoint = tracesEndpoint(env);
        if (endpoint.isEmpty() && !wanted) {
            return Optional.empty();
        }
        if (endpoint.isEmpty()) {
            org.slf4j.LoggerFactory.getLogger(OtlpSetup.class).warn("tracing.default_endpoint endpoint={} reason=\"the otel "
                    + "callback is configured and neither OTEL_EXPORTER_OTLP_ENDPOINT nor OTEL_ENDPOINT is set\"", DEFAULT_ENDPOINT);
            endpoint = Optional.of(DEFAULT_ENDPOINT);
        }
        OtlpHttpSpanExporterBuilder exporter = OtlpHttpSpanExporter.builder()
                .setEndpoint(endpoint.get())
                .setTimeout(Duration.ofSeconds(10));
        headers(first(env, "OTEL_EXPORTER_OTLP_HEADERS", "OTEL_HEADERS").orElse("")).forEach(exporter::addHeader);
        Resource resource = Resource.getDefault().merge(Resource.create(
                Attributes.of(SERVICE_NAME, first(env, "OTEL_SERVICE_NAME").orElse("sluice"))));
        SdkTracerProvider provider = SdkTracerProvider.builder()
                .setResource(resource)
                .addSpanProcessor(BatchSpanProcessor.builder(exporter.build()).setScheduleDelay(Duration.ofMillis(500)).build())
                .build();
        return Optional.of(new GatewayTracing(provider));
    }

    static Optional<String> tracesEndpoint(Map<String, String> env) {
        Optional<String> traces = first(env, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT");
        if (traces.isPresent()) {
            return traces;
        }
        return first(env, "OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_ENDPOINT")
                .map(base -> base.endsWith("/") ? base.substring(0, base.length() - 1) : base)
                .map(base -> base + "/v1/traces");
    }

    /** {@code a=1,b=2} as header names and values; pairs without {@code =} are ignored. */
    static Map<String, String> headers(String pairs) {
        Map<String, String> headers = new java.util.LinkedHashMap<>();
        for (String pair : pairs.split(",")) {
            int equals = pair.indexOf('=');
            if (equals > 0) {
                // Values are percent-encoded, as OpenTelemetry's variables define them (Basic%20...).
                headers.put(pair.substring(0, equals).strip(),
                        java.net.URLDecoder.decode(pair.substring(equals + 1).strip(), java.nio.charset.StandardCharsets.UTF_8));
            }
        }
        return headers;
    }

    private static Optional<String> first(Map<String, String> env, String... names) {
        for (String name : names) {
            String value = env.get(name);
            if (value != null && !value.isBlank()) {
                return Optional.of(value.strip());
            }
        }
        return Optional.empty();
    }
}
