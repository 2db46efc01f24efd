package dev.sluice.call;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.accounts.Caller;
import dev.sluice.ops.logging.LogFormat;
import dev.sluice.ops.logging.LogLineEncoder;
import dev.sluice.testing.Chat;
import dev.sluice.testing.FakeTime;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.ApiError;
import dev.sluice.wire.Json;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** Every call refused before routing is logged once, and a flood of them is counted rather than written out. */
class RefusalLogTest {
    private static final String MASTER = "sk-master-refusals-9876";

    private final Logger logger = (Logger) LoggerFactory.getLogger(RefusalLog.class);
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
    private final FakeTime time = new FakeTime();
    private Level previous;

    @BeforeEach
    void attach() {
        previous = logger.getLevel();
        logger.setLevel(Level.INFO);
        appender.start();
        logger.addAppender(appender);
    }

    @AfterEach
    void detach() {
        logger.detachAppender(appender);
        logger.setLevel(previous);
    }

    private List<String> lines() {
        synchronized (appender) {
            return appender.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
        }
    }

    private static ApiError limited() {
        return new ApiError(429, "rate_limit_error", "Rate limit reached for key sk-...abcd.", null, "rate_limit_exceeded");
    }

    @Test
    void eachCodeWritesAtMostItsLinesPerIntervalThenSaysHowManyItLeftOut() {
        RefusalLog refusals = new RefusalLog(time.ticker(), 2, Duration.ofSeconds(60));
        for (int i = 0; i < 5; i++) {
            refusals.refused("/v1/chat/completions", Caller.ADMIN, limited());
        }
        refusals.refused("/v1/chat/completions", null, ApiError.unauthorized("Invalid API key."));
        assertThat(lines()).as("two of the five 429s, and the 401, which counts apart").hasSize(3);

        time.advance(Duration.ofSeconds(60).minusNanos(1));
        refusals.refused("/v1/chat/completions", Caller.ADMIN, limited());
        assertThat(lines()).as("one nanosecond before the interval ends: still left out").hasSize(3);

        time.advance(Duration.ofNanos(1));
        refusals.refused("/v1/chat/completions", Caller.ADMIN, limited());
        assertThat(lines()).hasSize(5);
        assertThat(lines().get(3)).isEqualTo("request.refusals_suppressed code=rate_limit_exceeded suppressed=4 interval_seconds=60");
        assertThat(lines().get(4)).startsWith("request.refused route=/v1/chat/completions caller=master_key status=429"
                + " code=rate_limit_exceeded");

        refusals.refused("/v1/chat/completions", Caller.ADMIN, limited());
        refusals.refused("/v1/chat/completions", Caller.ADMIN, limited());
        assertThat(lines()).as("the new interval has its own two lines, and no summary until it ends").hasSize(6);
    }

    @Test
    void aLineNamesRouteCallerStatusCodeAndReasonOnOneLine() {
        RefusalLog refusals = new RefusalLog(time.ticker(), 10, Duration.ofSeconds(60));
        refusals.refused("/v1/chat/completions", null,
                ApiError.invalidRequest("Unknown model 'a\nrequest.refused forged'.", "model", "model_not_found"));

        assertThat(lines()).containsExactly("request.refused route=/v1/chat/completions caller=unauthenticated status=400"
                + " code=model_not_found reason=\"Unknown model 'a'request.refused forged'.\"");
        assertThat(appender.list.getFirst().getLevel()).isEqualTo(Level.INFO);
    }

    @Test
    void aJsonLineCarriesEachValueAsItsOwnField() throws Exception {
        new RefusalLog(time.ticker(), 10, Duration.ofSeconds(60)).refused("/v1/chat/completions", Caller.ADMIN, limited());
        LogLineEncoder encoder = new LogLineEncoder();
        encoder.setContext(new ch.qos.logback.classic.LoggerContext());
        encoder.use(LogFormat.JSON);
        encoder.start();

        JsonNode line = Json.parse(encoder.encode(appender.list.getFirst()));

        assertThat(line.path("event").asText()).isEqualTo("request.refused");
        assertThat(line.path("level").asText()).isEqualTo("INFO");
        assertThat(line.path("route").asText()).isEqualTo("/v1/chat/completions");
        assertThat(line.path("caller").asText()).isEqualTo("master_key");
        assertThat(line.path("status").asInt()).isEqualTo(429);
        assertThat(line.path("code").asText()).isEqualTo("rate_limit_exceeded");
        assertThat(line.path("reason").asText()).isEqualTo("Rate limit reached for key sk-...abcd.");
    }

    @Test
    void theCodesCountedApartAreBounded() {
        RefusalLog refusals = new RefusalLog(time.ticker(), 1, Duration.ofSeconds(60));
        for (int i = 0; i < RefusalLog.MAX_CODES + 50; i++) {
            refusals.decide("code" + i);
        }
        assertThat(refusals.decide("another").write()).as("past the bound, new codes share one count").isFalse();
        assertThat(refusals.decide("code0").write()).as("a code already counted keeps its own").isFalse();
        time.advance(Duration.ofSeconds(60));
        assertThat(refusals.decide("code0")).isEqualTo(new RefusalLog.Decision(true, 1));
    }

    @Test
    void theGatewayLogsEveryCallRefusedBeforeRoutingNeverTheKey() {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - model_name: chat
                            litellm_params: {model: openai/m, api_base: %s}
                        general_settings:
                          master_key: %s
                        """.formatted(upstream.baseUrl(), MASTER))) {
            String wrongKey = "sk-wrong-key-5555";
            assertThat(gateway.post("/v1/chat/completions", Chat.body("chat", "a"), "Authorization", "Bearer " + wrongKey)
                    .statusCode()).isEqualTo(401);
            assertThat(gateway.post("/v1/chat/completions", Chat.body("nothing-here", "a"), "Authorization", "Bearer " + MASTER)
                    .statusCode()).isIn(400, 404);
            assertThat(gateway.post("/v1/chat/completions", Chat.body("chat", "a"), "Authorization", "Bearer " + MASTER)
                    .statusCode()).as("a served call is not a refusal").isEqualTo(200);

            assertThat(lines()).hasSize(2);
            assertThat(lines().get(0)).startsWith("request.refused route=/v1/chat/completions caller=unauthenticated status=401"
                    + " code=invalid_api_key reason=");
            assertThat(lines().get(1)).startsWith("request.refused route=/v1/chat/completions caller=master_key status=");
            assertThat(String.join("\n", lines())).doesNotContain(wrongKey).doesNotContain(MASTER).doesNotContain("5555");
        }
    }
}
