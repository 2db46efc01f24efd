package dev.sluice.store;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.sluice.testing.FakeTime;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** An outage of the store is one WARN per cause and one INFO at its end, however many operations fail. */
class StoreOutageLogTest {
    private final Logger logger = (Logger) LoggerFactory.getLogger("dev.sluice.store");
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
    private final FakeTime time = new FakeTime();
    private final StoreOutageLog outages = new StoreOutageLog("postgresql://db:5432/sluice", time.ticker());

    @BeforeEach
    void attach() {
        appender.start();
        logger.addAppender(appender);
    }

    @AfterEach
    void detach() {
        logger.detachAppender(appender);
    }

    @Test
    void manyFailuresOfOneCauseAreOneWarnAndTheirEndOneInfo() {
        outages.answered();
        for (int i = 0; i < 57; i++) {
            outages.failed("Connection to 127.0.0.1:5432 refused");
            time.advance(Duration.ofMillis(100));
        }
        outages.answered();
        outages.answered();

        assertThat(appender.list).extracting(ILoggingEvent::getLevel).containsExactly(Level.WARN, Level.INFO);
        assertThat(appender.list.getFirst().getFormattedMessage()).startsWith("store.unreachable "
                + "location=postgresql://db:5432/sluice reason=Connection to 127.0.0.1:5432 refused; ");
        assertThat(appender.list.getFirst().getThrowableProxy()).as("no stack trace").isNull();
        assertThat(appender.list.get(1).getFormattedMessage()).isEqualTo("store.reachable "
                + "location=postgresql://db:5432/sluice unreachable_for=5.7s failed_operations=57");
    }

    @Test
    void eachOtherCauseInAnOutageIsToldOnceAndCausesDifferingInNumbersAreOne() {
        outages.failed("An I/O error occurred while sending to the backend");
        outages.failed("sluice-store - Connection is not available, request timed out after 5001ms");
        outages.failed("sluice-store - Connection is not available, request timed out after 5003ms");
        outages.failed("An I/O error occurred while sending to the backend");

        assertThat(appender.list).extracting(ILoggingEvent::getFormattedMessage).hasSize(2)
                .satisfiesExactly(first -> assertThat(first).contains("reason=An I/O error"),
                        second -> assertThat(second).contains("after 5001ms"));
    }

    @Test
    void atMostAFewCausesAreToldInOneOutage() {
        for (char c = 'a'; c <= 'z'; c++) {
            outages.failed("cause " + c);
        }

        assertThat(appender.list).hasSize(StoreOutageLog.MAX_CAUSES);
    }

    @Test
    void theNextOutageIsToldAgain() {
        outages.failed("Connection refused");
        outages.answered();
        outages.failed("Connection refused");

        assertThat(appender.list).extracting(ILoggingEvent::getLevel).containsExactly(Level.WARN, Level.INFO, Level.WARN);
        assertThat(outages.down()).isTrue();
    }
}
