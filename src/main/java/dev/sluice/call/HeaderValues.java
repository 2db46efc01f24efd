package dev.sluice.call;

import dev.sluice.accounts.spend.PythonFloats;
import dev.sluice.config.RouterSettings;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The text of the routed headers that repeats from call to call, written once and reused: a
 * deployment's {@code api_base} as the caller may see it, and a timeout in seconds as LiteLLM
 * prints it. Every call pays a map look-up instead of a parse. One instance per event loop;
 * its maps are concurrent all the same, as an upstream's answer may be handled on another
 * thread. A caller who sends a new timeout on every call cannot grow them past {@link #MOST_KEPT}.
 */
final class HeaderValues {
    static final int MOST_KEPT = 256;

    private final Supplier<RouterSettings> settings;
    private final Map<String, String> shownBases = new ConcurrentHashMap<>();
    private final Map<Duration, String> seconds = new ConcurrentHashMap<>();

    /** @param settings the router settings in effect, read for a call that ends before any attempt */
    HeaderValues(Supplier<RouterSettings> settings) {
        this.settings = settings;
    }

    RouterSettings settings() {
        return settings.get();
    }

    /** {@code apiBase} with no secret in it ({@link ShownApiBase}). */
    String shownBase(String apiBase) {
        return kept(shownBases, apiBase, ShownApiBase::of);
    }

    /**
     * {@code micros} as milliseconds the way Python prints a float rounded to three places
     * ({@code 12.345}, {@code 12.3}, {@code 12.0}), without the exact decimal arithmetic a
     * general float's shortest digits need: written on every served answer.
     */
    static String millis(long micros) {
        long whole = micros / 1000;
        int fraction = (int) (micros % 1000);
        if (fraction == 0) {
            return whole + ".0";
        }
        StringBuilder text = new StringBuilder(24).append(whole).append('.');
        if (fraction < 100) {
            text.append('0');
        }
        if (fraction < 10) {
            text.append('0');
        }
        text.append(fraction);
        int end = text.length();
        while (text.charAt(end - 1) == '0') {
            end--;
        }
        text.setLength(end);
        return text.toString();
    }

    /** A duration in seconds, as Python prints a float: {@code 600.0}, {@code 0.001}. */
    String seconds(Duration duration) {
        return kept(seconds, duration, d -> PythonFloats.repr(d.toNanos() / 1e9));
    }

    private static <K> String kept(Map<K, String> kept, K key, java.util.function.Function<K, String> write) {
        String text = kept.get(key);
        if (text == null) {
            if (kept.size() >= MOST_KEPT) {
                kept.clear();
            }
            text = write.apply(key);
            kept.put(key, text);
        }
        return text;
    }
}
