package dev.sluice.router;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.sluice.failure.Failure;
import dev.sluice.failure.FailureClass;
import io.vertx.core.buffer.Buffer;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** The log lines' names are an interface: dashboards and alerts match on them (docs/reliability.md lists them). */
class RouterLogTest {
    private final Logger logger = (Logger) LoggerFactory.getLogger("dev.sluice.router");
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
    private Level previous;

    @BeforeEach
    void attach() {
        previous = logger.getLevel();
        logger.setLevel(Level.DEBUG);
        appender.start();
        logger.addAppender(appender);
    }

    @AfterEach
    void detach() {
        logger.detachAppender(appender);
        logger.setLevel(previous);
    }

    @Test
    void everyDecisionHasItsStableName() {
        RouterLog log = new RouterLog();
        log.attempt("c1", "g", "a", 0);
        for (FailureClass kind : FailureClass.values()) {
            log.attemptFailed("c1", "g", "a", failure(kind));
        }
        log.retry("c1", "g", "a", failure(FailureClass.SERVER), 120);
        log.failover("c1", "g", "a", failure(FailureClass.NOT_FOUND));
        log.bench("g", "a", FailureClass.RATE_LIMITED, Instant.parse("2026-01-01T00:00:00Z"));
        log.unbench("g", "a");
        log.fallback("c1", "g", "h", failure(FailureClass.SERVER));
        log.skip("c1", "g", "h", dev.sluice.router.SkipReason.MAX_FALLBACKS);

        List<String> names = appender.list.stream().map(e -> e.getFormattedMessage().split(" ")[0]).toList();
        assertThat(names).containsExactly(
                "router.attempt",
                "dispatch.transport_error", "dispatch.timeout", "dispatch.rate_limited", "dispatch.server_error",
                "dispatch.auth_error", "dispatch.not_found", "dispatch.request_rejected", "dispatch.request_rejected",
                "dispatch.request_rejected", "dispatch.guardrail_refused",
                "router.retry", "router.failover", "router.deployment_benched", "router.deployment_unbenched",
                "router.fallback", "router.fallback_skipped");
        assertThat(appender.list.get(1).getFormattedMessage()).contains("call_id=c1", "group=g", "deployment=a", "class=transport");
        assertThat(appender.list.getLast().getFormattedMessage()).contains("reason=max_fallbacks");
    }

    private static Failure failure(FailureClass kind) {
        return new Failure(kind, kind == FailureClass.TRANSPORT ? 0 : 500, Buffer.buffer(), Optional.empty(), "cause");
    }
}
