package dev.sluice.ops.logging;

import java.text.MessageFormat;
import java.util.ResourceBundle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the JDK's platform loggers ({@link System.Logger}) write: through SLF4J to the
 * gateway's own log, named in {@code META-INF/services/java.lang.System$LoggerFinder}.
 *
 * <p>Without it, a library that logs through {@link System#getLogger} (Caffeine does, for a
 * cache load that failed) writes to {@code java.util.logging}'s console handler: two lines
 * and a stack trace on stderr in a format of its own, outside the plain and the JSON lines
 * alike, and unmasked. Through SLF4J those lines take the gateway's format and masking, and
 * {@code logback.xml} sets how much of each library is written.
 */
public final class Slf4jSystemLoggers extends System.LoggerFinder {

    @Override
    public System.Logger getLogger(String name, Module module) {
        return new Slf4jSystemLogger(LoggerFactory.getLogger(name));
    }

    /** A platform logger writing to one SLF4J logger. */
    private record Slf4jSystemLogger(Logger to) implements System.Logger {

        @Override
        public String getName() {
            return to.getName();
        }

        @Override
        public boolean isLoggable(Level level) {
            return switch (level) {
                case ALL, TRACE -> to.isTraceEnabled();
                case DEBUG -> to.isDebugEnabled();
                case INFO -> to.isInfoEnabled();
                case WARNING -> to.isWarnEnabled();
                case ERROR -> to.isErrorEnabled();
                case OFF -> false;
            };
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String message, Throwable thrown) {
            if (!isLoggable(level)) {
                return;
            }
            switch (level) {
                case ALL, TRACE -> to.trace(message, thrown);
                case DEBUG -> to.debug(message, thrown);
                case INFO -> to.info(message, thrown);
                case WARNING -> to.warn(message, thrown);
                case ERROR -> to.error(message, thrown);
                case OFF -> { }
            }
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String format, Object... params) {
            if (isLoggable(level)) {
                // The platform loggers' parameters are MessageFormat's ({0}), not SLF4J's ({}).
                log(level, bundle, params == null || params.length == 0 ? format : MessageFormat.format(format, params),
                        (Throwable) null);
            }
        }
    }
}
