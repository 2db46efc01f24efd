package dev.sluice.ops.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.failure.Failure;
import dev.sluice.failure.FailureClass;
import dev.sluice.router.RouterLog;
import io.vertx.core.buffer.Buffer;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LogLineEncoderTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long AT = 1_786_643_700_123L; // 2026-08-13T17:55:00.123Z

    private final LoggerContext context = new LoggerContext();

    private LogLineEncoder encoder(LogFormat format) {
        LogLineEncoder encoder = new LogLineEncoder();
        encoder.setContext(context);
        encoder.use(format);
        encoder.start();
        return encoder;
    }

    private LoggingEvent event(String logger, Level level, String pattern, Throwable thrown, Object... arguments) {
        LoggingEvent event = new LoggingEvent(Logger.class.getName(), context.getLogger(logger), level, pattern, thrown, arguments);
        event.setTimeStamp(AT);
        event.setThreadName("vert.x-eventloop-thread-1");
        return event;
    }

    private static String text(byte[] line) {
        return new String(line, StandardCharsets.UTF_8);
    }

    private static JsonNode json(byte[] line) throws Exception {
        String text = text(line);
        assertThat(text).endsWith("\n").doesNotContain("\r");
        assertThat(text.strip()).doesNotContain("\n");
        return JSON.readTree(text);
    }

    @Test
    void aPlainLineIsThePatternWithSecretsMasked() {
        byte[] line = encoder(LogFormat.PLAIN).encode(event("dev.sluice.server.Gateway", Level.WARN,
                "upstream.said message={}", null, "Incorrect API key provided: sk-abcdefgh1234"));

        assertThat(text(line)).matches("\\d\\d:\\d\\d:\\d\\d\\.\\d{3} WARN  Gateway upstream\\.said message=Incorrect API key provided: sk-\\*\\*\\*\\*\n");
    }

    @Test
    void aJsonLineHasTheStandardFieldsTheEventAndItsTypedFields() throws Exception {
        JsonNode line = json(encoder(LogFormat.JSON).encode(event("dev.sluice.admin.ModelAdminHandlers", Level.INFO,
                "models.deployment_added group={} deployment={} provider={} weight={}", null, "g", "dep 1", "openai", 3)));

        assertThat(line.path("timestamp").asText()).isEqualTo("2026-08-13T17:55:00.123Z");
        assertThat(line.path("level").asText()).isEqualTo("INFO");
        assertThat(line.path("logger").asText()).isEqualTo("dev.sluice.admin.ModelAdminHandlers");
        assertThat(line.path("thread").asText()).isEqualTo("vert.x-eventloop-thread-1");
        assertThat(line.path("event").asText()).isEqualTo("models.deployment_added");
        assertThat(line.path("message").asText()).isEqualTo("models.deployment_added group=g deployment=dep 1 provider=openai weight=3");
        assertThat(line.path("group").asText()).isEqualTo("g");
        assertThat(line.path("deployment").asText()).isEqualTo("dep 1");
        assertThat(line.path("weight").isInt()).isTrue();
        assertThat(line.path("weight").asInt()).isEqualTo(3);
        assertThat(line.has("exception")).isFalse();
        List<String> names = new ArrayList<>();
        line.fieldNames().forEachRemaining(names::add);
        assertThat(names).startsWith("timestamp", "level", "logger", "thread", "event", "message");
    }

    @Test
    void aLineWithoutAnEventHasNoEventField() throws Exception {
        JsonNode line = json(encoder(LogFormat.JSON).encode(event("io.vertx.core.impl.ContextImpl", Level.WARN,
                "Unhandled exception in \"quoted\"\ttext", null)));

        assertThat(line.has("event")).isFalse();
        assertThat(line.path("message").asText()).isEqualTo("Unhandled exception in \"quoted\"\ttext");
    }

    @Test
    void anExceptionIsAFieldHoldingItsStackTraceMasked() throws Exception {
        IllegalStateException thrown = new IllegalStateException("refused Authorization: Bearer sk-abcdefgh1234",
                new RuntimeException("inner"));
        JsonNode line = json(encoder(LogFormat.JSON).encode(event("dev.sluice.http.Responses", Level.ERROR,
                "request.internal_error where={} call_id={}", thrown, "relay", "c1")));

        String exception = line.path("exception").asText();
        assertThat(exception).startsWith("java.lang.IllegalStateException: refused Authorization: Bearer ****")
                .contains("\tat dev.sluice.ops.logging.LogLineEncoderTest.", "Caused by: java.lang.RuntimeException: inner")
                .doesNotContain("abcdefgh1234");
        assertThat(line.path("call_id").asText()).isEqualTo("c1");
    }

    @Test
    void secretsAreMaskedInTheMessageAndInEveryField() throws Exception {
        byte[] encoded = encoder(LogFormat.JSON).encode(event("dev.sluice.accounts.Accounts", Level.WARN,
                "store.unreachable_at_start location={} reason={}", null,
                "postgresql://sluice:hunter2@db/sluice", "server said: api_key=abc123 Bearer tok.en sk-abcdefgh1234"));
        JsonNode line = json(encoded);

        assertThat(text(encoded)).doesNotContain("hunter2", "abc123", "tok.en", "abcdefgh1234");
        assertThat(line.path("location").asText()).isEqualTo("postgresql://sluice:****@db/sluice");
        assertThat(line.path("reason").asText()).isEqualTo("server said: api_key=**** Bearer **** sk-****");
    }

    @Test
    void aFieldNamedLikeAStandardFieldStaysInTheMessageOnly() throws Exception {
        JsonNode line = json(encoder(LogFormat.JSON).encode(event("x", Level.INFO, "odd.event level={} message={} n={}", null,
                "high", "hi", 1)));

        assertThat(line.path("level").asText()).isEqualTo("INFO");
        assertThat(line.path("message").asText()).isEqualTo("odd.event level=high message=hi n=1");
        assertThat(line.path("n").asInt()).isEqualTo(1);
    }

    @Test
    void aCollectionIsAnArrayOfMaskedTexts() throws Exception {
        JsonNode line = json(encoder(LogFormat.JSON).encode(event("dev.sluice.boot.cli.Main", Level.ERROR,
                "config.unusable source={} problems={}", null, "config.yaml",
                List.of("model_list[0].litellm_params.weight: -1 (expected: >= 0)", "x: api_key=abc123"))));

        assertThat(line.path("problems").isArray()).isTrue();
        assertThat(line.path("problems").get(0).asText()).isEqualTo("model_list[0].litellm_params.weight: -1 (expected: >= 0)");
        assertThat(line.path("problems").get(1).asText()).isEqualTo("x: api_key=****");
    }

    @Test
    void keyValuePairsGivenToSlf4jAreFieldsToo() throws Exception {
        LoggingEvent event = event("x", Level.INFO, "spend.flushed rows={}", null, 3);
        event.addKeyValuePair(new org.slf4j.event.KeyValuePair("store", "h2"));
        event.addKeyValuePair(new org.slf4j.event.KeyValuePair("rows", 99));

        JsonNode line = json(encoder(LogFormat.JSON).encode(event));

        assertThat(line.path("rows").asInt()).isEqualTo(3);
        assertThat(line.path("store").asText()).isEqualTo("h2");
    }

    @Test
    void encodingLeavesTheEventAsItWasForTheOtherAppenders() {
        Object[] arguments = {"c1", "sk-abcdefgh1234"};
        LoggingEvent event = event("x", Level.INFO, "test.event call_id={} key={}", null, arguments);
        String before = event.getFormattedMessage();

        encoder(LogFormat.JSON).encode(event);
        encoder(LogFormat.PLAIN).encode(event);

        assertThat(event.getFormattedMessage()).isEqualTo(before).contains("sk-abcdefgh1234");
        assertThat(event.getArgumentArray()).containsExactly("c1", "sk-abcdefgh1234");
        assertThat(event.getMessage()).isEqualTo("test.event call_id={} key={}");
    }

    @Test
    void routerDecisionsBecomeEventsWithTheirFields() throws Exception {
        Failure failure = new Failure(FailureClass.SERVER, 500, Buffer.buffer("{}"), Optional.empty(), "upstream 500");
        Logger router = (Logger) org.slf4j.LoggerFactory.getLogger("dev.sluice.router");
        ListAppender<ILoggingEvent> captured = new ListAppender<>();
        captured.start();
        router.addAppender(captured);
        try {
            new RouterLog().attemptFailed("c1", "g", "a", failure);
            new RouterLog().retry("c1", "g", "a", failure, 120);
        } finally {
            router.detachAppender(captured);
        }
        LogLineEncoder encoder = encoder(LogFormat.JSON);
        JsonNode failed = json(encoder.encode(captured.list.get(0)));
        JsonNode retry = json(encoder.encode(captured.list.get(1)));

        assertThat(failed.path("event").asText()).isEqualTo("dispatch.server_error");
        assertThat(failed.path("level").asText()).isEqualTo("WARN");
        assertThat(failed.path("logger").asText()).isEqualTo("dev.sluice.router");
        assertThat(failed.path("call_id").asText()).isEqualTo("c1");
        assertThat(failed.path("group").asText()).isEqualTo("g");
        assertThat(failed.path("deployment").asText()).isEqualTo("a");
        assertThat(failed.path("class").asText()).isEqualTo("server");
        assertThat(failed.path("status").isInt()).isTrue();
        assertThat(failed.path("status").asInt()).isEqualTo(500);
        assertThat(failed.path("cause").asText()).isEqualTo("upstream 500");
        assertThat(retry.path("event").asText()).isEqualTo("router.retry");
        assertThat(retry.path("delay_ms").asLong()).isEqualTo(120);
    }

    @ParameterizedTest
    @ValueSource(strings = {"True", "true", "TRUE", "1", " true "})
    void jsonLogsTurnsJsonOn(String value) {
        LogLineEncoder encoder = new LogLineEncoder();
        encoder.setJsonLogs(value);
        assertThat(encoder.format()).isEqualTo(LogFormat.JSON);
    }

    @ParameterizedTest
    @ValueSource(strings = {"False", "false", "0", "", "yes", "2"})
    void anyOtherValueOfJsonLogsKeepsPlainLines(String value) {
        LogLineEncoder encoder = new LogLineEncoder();
        encoder.setJsonLogs(value);
        assertThat(encoder.format()).isEqualTo(LogFormat.PLAIN);
        assertThat(LogFormat.ofSwitch(null)).isEqualTo(LogFormat.PLAIN);
    }

    @Test
    void useEverywhereSwitchesTheEncodersOfEveryAppender() {
        LogLineEncoder encoder = encoder(LogFormat.PLAIN);
        OutputStreamAppender<ILoggingEvent> appender = new OutputStreamAppender<>();
        appender.setContext(context);
        appender.setEncoder(encoder);
        appender.setOutputStream(new ByteArrayOutputStream());
        appender.start();
        context.getLogger(Logger.ROOT_LOGGER_NAME).addAppender(appender);
        assertThat(LogLineEncoder.jsonInUse(context)).isFalse();

        LogLineEncoder.useEverywhere(context, LogFormat.JSON);

        assertThat(encoder.format()).isEqualTo(LogFormat.JSON);
        assertThat(LogLineEncoder.jsonInUse(context)).isTrue();
    }
}
