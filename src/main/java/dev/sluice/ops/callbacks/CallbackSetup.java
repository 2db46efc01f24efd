package dev.sluice.ops.callbacks;

import dev.sluice.config.CallbackSettings;
import dev.sluice.config.LoggingCallback;
import dev.sluice.ops.metrics.GatewayMetrics;
import dev.sluice.ops.tracing.GatewayTracing;
import dev.sluice.time.Scheduler;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.LoggerFactory;

/**
 * Builds the configured callbacks from {@code litellm_settings} and the variables LiteLLM's
 * loggers read (the config already checked that the ones each needs are set):
 * <ul>
 *   <li>{@code generic_api}: {@code GENERIC_LOGGER_ENDPOINT}, and {@code GENERIC_LOGGER_HEADERS}
 *       as {@code name=value} pairs separated by commas;</li>
 *   <li>{@code langfuse}: {@code LANGFUSE_PUBLIC_KEY} and {@code LANGFUSE_SECRET_KEY} (basic
 *       auth), {@code LANGFUSE_HOST} ({@value #LANGFUSE_CLOUD} by default);</li>
 *   <li>{@code langfuse_otel}: the same keys, {@code LANGFUSE_OTEL_HOST} else {@code LANGFUSE_HOST};</li>
 *   <li>{@code otel}: the tracing the OpenTelemetry variables set up ({@link dev.sluice.ops.tracing.OtlpSetup}).</li>
 * </ul>
 * Each queued callback's sent, failed and dropped records are counted in {@code /metrics}.
 */
public final class CallbackSetup {
    static final String LANGFUSE_CLOUD = "https://cloud.langfuse.com";
    static final String LANGFUSE_INGESTION = "/api/public/ingestion";
    static final String LANGFUSE_OTLP = "/api/public/otel/v1/traces";
    /** Records held per callback: at most {@link #CAPACITY} calls' prompts and answers wait in memory. */
    static final int CAPACITY = 1000;
    static final Duration LINGER = Duration.ofMillis(500);
    static final int ATTEMPTS = 5;
    static final Duration FLUSH_BY = Duration.ofSeconds(5);
    /** Langfuse takes at most 3.5 MB a post: fewer calls go in one. */
    static final int LANGFUSE_BATCH = 20;
    static final int GENERIC_BATCH = 100;

    private CallbackSetup() {}

    /**
     * The callbacks {@code settings} configure, their senders started.
     *
     * @param tracing the gateway's tracing, which the {@code otel} callback describes calls on
     * @param pacing  the time the senders wait on, and the waits between a callback's attempts to post a batch
     * @param jobs    where the senders run, each as the job {@code callback-<name>}
     */
    public static Callbacks start(CallbackSettings settings, Map<String, String> env, Optional<GatewayTracing> tracing,
            GatewayMetrics metrics, Pacing pacing, Scheduler jobs) {
        if (!settings.any()) {
            return Callbacks.none();
        }
        LoggedContent content = new LoggedContent(settings.messageLogging());
        HttpClient http = HttpBatchSender.client();
        List<Callbacks.Subscriber> queued = new ArrayList<>();
        for (LoggingCallback callback : settings.all()) {
            Optional<CallbackQueue> queue = switch (callback) {
                case GENERIC_API -> Optional.of(queue(callback, new HttpBatchSender(http, URI.create(env.get("GENERIC_LOGGER_ENDPOINT").strip()),
                        headers(env.getOrDefault("GENERIC_LOGGER_HEADERS", "")), new StandardLoggingPayload(content), pacing.clock()),
                        GENERIC_BATCH, pacing));
                case LANGFUSE -> Optional.of(queue(callback, new HttpBatchSender(http, langfuseEndpoint(env),
                        Map.of("Authorization", basic(env.get("LANGFUSE_PUBLIC_KEY"), env.get("LANGFUSE_SECRET_KEY"))),
                        new LangfuseBatch(content), pacing.clock()), LANGFUSE_BATCH, pacing));
                case LANGFUSE_OTEL -> Optional.of(queue(callback, new HttpBatchSender(http, langfuseOtelEndpoint(env),
                        Map.of("Authorization", basic(env.get("LANGFUSE_PUBLIC_KEY"), env.get("LANGFUSE_SECRET_KEY"))),
                        new LangfuseOtelBatch(content, settings.messageLogging(), env.getOrDefault("OTEL_SERVICE_NAME", "sluice")),
                        pacing.clock()), LANGFUSE_BATCH, pacing));
                case OTEL -> Optional.empty();
            };
            queue.ifPresent(q -> queued.add(new Callbacks.Subscriber(q.start(jobs), settings.onSuccess().contains(callback),
                    settings.onFailure().contains(callback))));
        }
        count(metrics, queued);
        OtelCallback spans = null;
        if (settings.all().contains(LoggingCallback.OTEL)) {
            if (tracing.isPresent()) {
                spans = new OtelCallback(tracing.get(), settings.onSuccess().contains(LoggingCallback.OTEL),
                        settings.onFailure().contains(LoggingCallback.OTEL), settings.messageLogging());
            } else {
                LoggerFactory.getLogger(CallbackSetup.class).warn("callbacks.otel_without_tracing reason=\"no span to describe\"");
            }
        }
        return new Callbacks(queued, spans, settings.messageLogging());
    }

    private static CallbackQueue queue(LoggingCallback callback, BatchSender sender, int batchSize, Pacing pacing) {
        return new CallbackQueue(callback.wireName(), sender,
                new CallbackQueue.Limits(CAPACITY, batchSize, LINGER, ATTEMPTS, FLUSH_BY), pacing, new CallbackCounters());
    }

    private static URI langfuseEndpoint(Map<String, String> env) {
        return URI.create(langfuseHost(env.getOrDefault("LANGFUSE_HOST", "")) + LANGFUSE_INGESTION);
    }

    /** {@code langfuse_otel} reads {@code LANGFUSE_OTEL_HOST} first, as LiteLLM's does. */
    private static URI langfuseOtelEndpoint(Map<String, String> env) {
        String host = env.getOrDefault("LANGFUSE_OTEL_HOST", "").isBlank() ? env.getOrDefault("LANGFUSE_HOST", "")
                : env.get("LANGFUSE_OTEL_HOST");
        return URI.create(langfuseHost(host) + LANGFUSE_OTLP);
    }

    private static String langfuseHost(String written) {
        String host = written.strip().isEmpty() ? LANGFUSE_CLOUD : written.strip();
        return host.endsWith("/") ? host.substring(0, host.length() - 1) : host;
    }

    private static String basic(String publicKey, String secretKey) {
        String pair = publicKey.strip() + ":" + secretKey.strip();
        return "Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8));
    }

    /** LiteLLM's {@code GENERIC_LOGGER_HEADERS}: {@code name=value} pairs, comma-separated; a pair without {@code =} is skipped. */
    static Map<String, String> headers(String pairs) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (String pair : pairs.split(",")) {
            int equals = pair.indexOf('=');
            if (equals > 0) {
                headers.put(pair.substring(0, equals).strip(), pair.substring(equals + 1).strip());
            }
        }
        return headers;
    }

    private static void count(GatewayMetrics metrics, List<Callbacks.Subscriber> queued) {
        if (queued.isEmpty()) {
            return;
        }
        metrics.counterOf("sluice_callback_sent_total", "Call records a logging callback's receiver took.",
                () -> totals(queued, CallbackCounters::sent), "callback");
        metrics.counterOf("sluice_callback_failed_total", "Call records a logging callback gave up on: refused by "
                + "its receiver, still failing after the last attempt, or unsent at shutdown.",
                () -> totals(queued, CallbackCounters::failed), "callback");
        metrics.counterOf("sluice_callback_dropped_total", "Call records not queued for a logging callback because "
                + "its queue was full.", () -> totals(queued, CallbackCounters::dropped), "callback");
    }

    private static Map<List<String>, Double> totals(List<Callbacks.Subscriber> queued, Function<CallbackCounters, Long> count) {
        Map<List<String>, Double> totals = new LinkedHashMap<>();
        for (Callbacks.Subscriber subscriber : queued) {
            totals.put(List.of(subscriber.queue().name()), (double) count.apply(subscriber.queue().counters()));
        }
        return totals;
    }
}
