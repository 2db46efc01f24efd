package dev.sluice.call;

import dev.sluice.accounts.Caller;
import dev.sluice.wire.ApiError;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One INFO line, {@code request.refused}, for each model call answered with an error before it
 * was routed (401, 403, an unknown model, a budget, a rate limit, a bad body): its route, its
 * caller (a key's alias, else the start of its hash; never the key), status, code and reason.
 *
 * <p>A flood of refusals does not flood the log: of each code, at most {@code lines} lines
 * are written per {@code interval}; the rest are counted, and the first refusal of that code
 * after the interval writes {@code request.refusals_suppressed} with how many were left out
 * before its own line. Codes are the gateway's own (a closed set), and at most
 * {@link #MAX_CODES} are tracked, the rest sharing one count, so the state stays bounded
 * whatever callers send. Safe to call from any event loop.
 */
public final class RefusalLog {
    private static final Logger log = LoggerFactory.getLogger(RefusalLog.class);

    /** Lines per code per interval by default: enough to see who is refused and why. */
    public static final int DEFAULT_LINES = 10;
    public static final Duration DEFAULT_INTERVAL = Duration.ofMinutes(1);
    /** The most codes counted apart; beyond them, refusals share {@link #OTHER}. */
    static final int MAX_CODES = 256;
    static final String OTHER = "other";
    /** The longest reason written: an error message can quote a long model name. */
    static final int MAX_REASON = 300;

    private final LongSupplier ticker;
    private final int lines;
    private final long intervalNanos;
    /** By code. Guarded by {@code this}. */
    private final Map<String, Window> windows = new HashMap<>();

    /** One code's current interval. */
    private static final class Window {
        long start;
        int written;
        long suppressed;

        Window(long start) {
            this.start = start;
        }
    }

    /**
     * What to write for one refusal.
     *
     * @param write      whether its own line is written
     * @param suppressed how many refusals of its code were left out in the interval that just ended
     */
    record Decision(boolean write, long suppressed) {}

    /** @param ticker monotonic nanoseconds, as {@link System#nanoTime()} counts them */
    public RefusalLog(LongSupplier ticker, int lines, Duration interval) {
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        if (lines < 1) {
            throw new IllegalArgumentException("lines: " + lines + " (expected: >= 1)");
        }
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("interval: " + interval + " (expected: > 0)");
        }
        this.lines = lines;
        this.intervalNanos = interval.toNanos();
    }

    public static RefusalLog withDefaults(LongSupplier ticker) {
        return new RefusalLog(ticker, DEFAULT_LINES, DEFAULT_INTERVAL);
    }

    /** Logs a refusal of a call to {@code route}; {@code caller} is null when the caller was never known (a 401). */
    void refused(String route, Caller caller, ApiError error) {
        String code = codeOf(error);
        Decision decision = decide(code);
        if (decision.suppressed() > 0) {
            log.info("request.refusals_suppressed code={} suppressed={} interval_seconds={}", code, decision.suppressed(),
                    Duration.ofNanos(intervalNanos).toSeconds());
        }
        if (decision.write()) {
            log.info("request.refused route={} caller={} status={} code={} reason=\"{}\"", printable(route, 200), name(caller),
                    error.status(), code, printable(error.getMessage(), MAX_REASON));
        }
    }

    /** Counts one refusal of {@code code} now and says what to write. */
    synchronized Decision decide(String code) {
        long now = ticker.getAsLong();
        String counted = windows.containsKey(code) || windows.size() < MAX_CODES ? code : OTHER;
        Window window = windows.computeIfAbsent(counted, c -> new Window(now));
        long suppressed = 0;
        if (now - window.start >= intervalNanos) {
            suppressed = window.suppressed;
            window.start = now;
            window.written = 0;
            window.suppressed = 0;
        }
        if (window.written < lines) {
            window.written++;
            return new Decision(true, suppressed);
        }
        window.suppressed++;
        return new Decision(false, suppressed);
    }

    private static String codeOf(ApiError error) {
        if (error.code() != null && !error.code().isBlank()) {
            return printable(error.code(), 64);
        }
        return error.type() != null ? printable(error.type(), 64) : String.valueOf(error.status());
    }

    /** The caller as a log may name it: a key by its alias, else by the first 12 digits of its hash. */
    static String name(Caller caller) {
        return switch (caller) {
            case null -> "unauthenticated";
            case Caller.Keyed keyed -> keyed.key().keyAlias().filter(alias -> !alias.isBlank())
                    .map(alias -> "alias:" + printable(alias, 64))
                    .orElse("key_hash:" + keyed.keyHash().substring(0, Math.min(12, keyed.keyHash().length())));
            case Caller.Admin admin -> "master_key";
            case Caller.Open open -> "open";
        };
    }

    /** {@code text} cut to {@code max} characters, with control characters and quotes replaced, so one refusal is one line. */
    static String printable(String text, int max) {
        if (text == null) {
            return "";
        }
        String cut = text.length() > max ? text.substring(0, max) + "..." : text;
        StringBuilder out = new StringBuilder(cut.length());
        for (int i = 0; i < cut.length(); i++) {
            char c = cut.charAt(i);
            out.append(Character.isISOControl(c) || c == '"' ? '\'' : c);
        }
        return out.toString();
    }
}
