package dev.sluice.ops.logging;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.event.KeyValuePair;

/**
 * One log event as one line of JSON:
 * <pre>{@code
 * {"timestamp":"2026-08-13T17:55:00.123Z","level":"WARN","logger":"dev.sluice.router","thread":"vert.x-eventloop-thread-1",
 *  "event":"dispatch.server_error","message":"dispatch.server_error call_id=... status=500 ...","call_id":"...","status":500,...}
 * }</pre>
 * Always {@code timestamp} (ISO-8601, UTC, milliseconds), {@code level}, {@code logger},
 * {@code thread} and {@code message}; {@code event} and the {@code key=} fields when the
 * statement has them ({@link EventFields}), then SLF4J key-value pairs, then
 * {@code exception} (its stack trace as text) when the event carries one. A field whose key is
 * one of those standard names is left out: its value is still in {@code message}. Every text
 * goes through {@link SecretMask} before it is written; the event itself is only read, never
 * changed, so the other appenders see it as it was logged.
 */
final class JsonLogLine {
    static final Set<String> STANDARD = Set.of("timestamp", "level", "logger", "thread", "event", "message", "exception");

    private static final JsonFactory JSON = JsonFactory.builder().build();
    private static final DateTimeFormatter TIMESTAMP =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);
    private static final byte[] NEWLINE = {'\n'};

    private JsonLogLine() {}

    /** The event's line, ending with a newline, in UTF-8. */
    static byte[] of(ILoggingEvent event) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        try (JsonGenerator json = JSON.createGenerator(out)) {
            json.writeStartObject();
            json.writeStringField("timestamp", TIMESTAMP.format(Instant.ofEpochMilli(event.getTimeStamp())));
            json.writeStringField("level", event.getLevel().toString());
            json.writeStringField("logger", event.getLoggerName());
            json.writeStringField("thread", event.getThreadName());
            String message = event.getFormattedMessage();
            Optional<String> name = EventFields.event(message);
            if (name.isPresent()) {
                json.writeStringField("event", name.get());
            }
            json.writeStringField("message", SecretMask.mask(message));
            for (Map.Entry<String, Object> field : fields(event).entrySet()) {
                if (!STANDARD.contains(field.getKey())) {
                    json.writeFieldName(field.getKey());
                    write(json, field.getValue());
                }
            }
            IThrowableProxy thrown = event.getThrowableProxy();
            if (thrown != null) {
                json.writeStringField("exception", SecretMask.mask(ThrowableProxyUtil.asString(thrown)));
            }
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("a log line could not be written as JSON", e);
        }
        out.writeBytes(NEWLINE);
        return out.toByteArray();
    }

    private static Map<String, Object> fields(ILoggingEvent event) {
        Map<String, Object> fields = EventFields.fields(event.getMessage(), event.getArgumentArray());
        List<KeyValuePair> pairs = event.getKeyValuePairs();
        if (pairs != null) {
            fields = new LinkedHashMap<>(fields);
            for (KeyValuePair pair : pairs) {
                fields.putIfAbsent(pair.key, pair.value);
            }
        }
        return fields;
    }

    private static void write(JsonGenerator json, Object value) throws IOException {
        switch (value) {
            case null -> json.writeNull();
            case Boolean b -> json.writeBoolean(b);
            case Integer i -> json.writeNumber(i);
            case Long l -> json.writeNumber(l);
            case Short s -> json.writeNumber(s);
            case Byte b -> json.writeNumber(b);
            case BigDecimal d -> json.writeNumber(d);
            case BigInteger i -> json.writeNumber(i);
            case Double d when Double.isFinite(d) -> json.writeNumber(d);
            case Float f when Float.isFinite(f) -> json.writeNumber(f);
            case Collection<?> items -> {
                json.writeStartArray();
                for (Object item : items) {
                    write(json, item);
                }
                json.writeEndArray();
            }
            default -> json.writeString(SecretMask.mask(String.valueOf(value)));
        }
    }
}
