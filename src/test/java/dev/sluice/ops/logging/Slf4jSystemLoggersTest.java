package dev.sluice.ops.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The JDK's platform loggers write through SLF4J, so what a library logs there (Caffeine's
 * failed loads) takes the gateway's format and level settings instead of stderr's own lines.
 */
class Slf4jSystemLoggersTest {

    @Test
    void aPlatformLoggersLinesReachTheGatewaysLogAtTheirLevel() {
        Logger logger = (Logger) LoggerFactory.getLogger("test.platform");
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        logger.addAppender(appender);
        logger.setLevel(Level.INFO);
        try {
            System.Logger platform = System.getLogger("test.platform");
            platform.log(System.Logger.Level.WARNING, "load of {0} failed", "k1");
            platform.log(System.Logger.Level.ERROR, "broken", new IllegalStateException("x"));
            platform.log(System.Logger.Level.DEBUG, "not written at INFO");

            assertThat(platform.isLoggable(System.Logger.Level.DEBUG)).isFalse();
            assertThat(appender.list).extracting(ILoggingEvent::getLevel).containsExactly(Level.WARN, Level.ERROR);
            assertThat(appender.list.getFirst().getFormattedMessage()).isEqualTo("load of k1 failed");
            assertThat(appender.list.get(1).getThrowableProxy().getMessage()).isEqualTo("x");
        } finally {
            logger.detachAppender(appender);
        }
    }

    @Test
    void caffeinesWarningsOfFailedLoadsAreLeftToTheStoresOwnOutageLog() {
        assertThat(((Logger) LoggerFactory.getLogger("com.github.benmanes.caffeine.cache.LocalAsyncCache")).getEffectiveLevel())
                .isEqualTo(Level.ERROR);
        assertThat(((Logger) LoggerFactory.getLogger("com.zaxxer.hikari.pool.ProxyConnection")).getEffectiveLevel())
                .isEqualTo(Level.ERROR);
    }
}
