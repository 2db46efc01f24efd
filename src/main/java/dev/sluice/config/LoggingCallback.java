package dev.sluice.config;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The logging callbacks of LiteLLM's {@code litellm_settings} that Sluice acts on, by the
 * names LiteLLM gives them. Any other name ({@code datadog}, {@code s3}, a custom Python
 * class) is read and listed among the keys not acted on.
 */
public enum LoggingCallback {
    /** OpenTelemetry's GenAI attributes on the call's spans. */
    OTEL(List.of("otel"), List.of()),
    /** Traces and generations posted to Langfuse's ingestion API. */
    LANGFUSE(List.of("langfuse"), List.of("LANGFUSE_PUBLIC_KEY", "LANGFUSE_SECRET_KEY")),
    /** One OpenTelemetry span per call posted to Langfuse's OTLP endpoint. */
    LANGFUSE_OTEL(List.of("langfuse_otel"), List.of("LANGFUSE_PUBLIC_KEY", "LANGFUSE_SECRET_KEY")),
    /** LiteLLM's standard logging payloads posted to any URL; {@code generic} is its older name. */
    GENERIC_API(List.of("generic_api", "generic"), List.of("GENERIC_LOGGER_ENDPOINT"));

    private final List<String> names;
    private final List<String> requiredVariables;

    LoggingCallback(List<String> names, List<String> requiredVariables) {
        this.names = names;
        this.requiredVariables = requiredVariables;
    }

    /** The name metrics and logs use: LiteLLM's main name for it. */
    public String wireName() {
        return names.getFirst();
    }

    /** The environment variables it cannot work without, as LiteLLM's logger refuses to start without them. */
    public List<String> requiredVariables() {
        return requiredVariables;
    }

    /** The callback LiteLLM knows by {@code name}, when Sluice acts on it. */
    public static Optional<LoggingCallback> named(String name) {
        return Arrays.stream(values()).filter(c -> c.names.contains(name)).findFirst();
    }
}
