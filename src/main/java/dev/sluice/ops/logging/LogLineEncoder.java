package dev.sluice.ops.logging;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.encoder.EncoderBase;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;

/**
 * Sluice's log encoder, named in {@code logback.xml}: writes each event as a plain line
 * (its {@code pattern}) or as a JSON line ({@link JsonLogLine}), and passes every line
 * through {@link SecretMask} either way.
 *
 * <p>The format is set from {@code logback.xml} ({@code <jsonLogs>${JSON_LOGS:-}</jsonLogs>},
 * the environment variable LiteLLM reads) and can be switched once the config is read, by
 * {@link #useEverywhere}: the config is parsed after logging has started, and the switch
 * lands before the gateway logs anything of its own.
 */
public final class LogLineEncoder extends EncoderBase<ILoggingEvent> {
    static final String DEFAULT_PATTERN = "%d{HH:mm:ss.SSS} %-5level %logger{0} %msg%n";

    private String pattern = DEFAULT_PATTERN;
    private PatternLayout plain;
    private volatile LogFormat format = LogFormat.PLAIN;

    /** The plain line's logback pattern. */
    public void setPattern(String pattern) {
        this.pattern = pattern;
    }

    /** The value of {@code JSON_LOGS}: {@code true} (any case) or {@code 1} for JSON lines ({@link LogFormat#ofSwitch}). */
    public void setJsonLogs(String value) {
        this.format = LogFormat.ofSwitch(value);
    }

    public LogFormat format() {
        return format;
    }

    /** Switches this encoder's format; lines from now on are written in it. */
    public void use(LogFormat format) {
        this.format = format;
    }

    @Override
    public void start() {
        PatternLayout layout = new PatternLayout();
        layout.setContext(getContext());
        layout.setPattern(pattern);
        layout.start();
        plain = layout;
        super.start();
    }

    @Override
    public void stop() {
        if (plain != null) {
            plain.stop();
        }
        super.stop();
    }

    @Override
    public byte[] headerBytes() {
        return null;
    }

    @Override
    public byte[] encode(ILoggingEvent event) {
        if (format == LogFormat.JSON) {
            return JsonLogLine.of(event);
        }
        return SecretMask.mask(plain.doLayout(event)).getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public byte[] footerBytes() {
        return null;
    }

    /**
     * Switches every {@code LogLineEncoder} attached to a logger of the running logback to
     * {@code format}. Does nothing when SLF4J is bound to something other than logback.
     */
    public static void useEverywhere(LogFormat format) {
        ILoggerFactory factory = LoggerFactory.getILoggerFactory();
        if (factory instanceof LoggerContext context) {
            useEverywhere(context, format);
        }
    }

    static void useEverywhere(LoggerContext context, LogFormat format) {
        for (Logger logger : context.getLoggerList()) {
            for (Iterator<Appender<ILoggingEvent>> it = logger.iteratorForAppenders(); it.hasNext(); ) {
                if (it.next() instanceof OutputStreamAppender<ILoggingEvent> stream
                        && stream.getEncoder() instanceof LogLineEncoder encoder) {
                    encoder.use(format);
                }
            }
        }
    }

    /** Whether the running logback writes JSON lines: some {@code LogLineEncoder} of its root logger does. */
    public static boolean jsonInUse() {
        return LoggerFactory.getILoggerFactory() instanceof LoggerContext context && jsonInUse(context);
    }

    static boolean jsonInUse(LoggerContext context) {
        for (Iterator<Appender<ILoggingEvent>> it = context.getLogger(Logger.ROOT_LOGGER_NAME).iteratorForAppenders(); it.hasNext(); ) {
            if (it.next() instanceof OutputStreamAppender<ILoggingEvent> stream
                    && stream.getEncoder() instanceof LogLineEncoder encoder && encoder.format() == LogFormat.JSON) {
                return true;
            }
        }
        return false;
    }
}
