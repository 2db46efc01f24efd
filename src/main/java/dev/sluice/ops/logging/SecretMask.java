package dev.sluice.ops.logging;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The log's last line of defence: masks what looks like a credential in a line that is about
 * to be written, plain or JSON. Sluice's log statements are written never to carry a secret
 * (they name keys by hash or as {@code sk-...abcd}, databases and Redis without their
 * passwords); this catches what a library's message or an exception might still bring along.
 *
 * <p>The rules, applied in this order, each replacing only the secret part with {@code ****}:
 * <ol>
 *   <li><b>Credentials in a URL</b>: {@code scheme://user:password@host} keeps the user and
 *       masks the password ({@code redis://:****@host}); a URL with a user and no password,
 *       or without {@code @}, is left alone.</li>
 *   <li><b>Named values</b>: a value written after {@code password}, {@code passwd},
 *       {@code pwd}, {@code secret}, {@code client_secret}, {@code api_key} ({@code api-key},
 *       {@code apikey}, {@code x-api-key}), {@code master_key} or {@code authorization},
 *       case-insensitive, followed by {@code =} or by {@code :} and any spaces (quotes allowed
 *       around either, so headers and JSON match too). The value runs to the next space, quote,
 *       {@code &}, {@code ,}, {@code ;} or <code>}</code>; an empty value is left alone. For
 *       {@code authorization} a scheme word ({@code Bearer}, {@code Basic}, {@code Token}) is
 *       kept and the credential after it masked. {@code token} is not among the names: Sluice
 *       logs a key's hash as {@code token=}, which is what an operator looks keys up by.</li>
 *   <li><b>Bearer tokens</b>: {@code Bearer <token>} anywhere, case-insensitive; the word
 *       {@code Bearer} without a token after it is left alone.</li>
 *   <li><b>OpenAI-style keys</b>: {@code sk-} followed by at least
 *       {@value #MIN_KEY_CHARS} characters of {@code [A-Za-z0-9_-]}, not preceded by one of
 *       those characters ({@code task-1234} is not a key) becomes {@code sk-****}. Fewer
 *       characters are left alone, and so is Sluice's own abbreviation {@code sk-...abcd}
 *       (the dots end the match at zero characters).</li>
 * </ol>
 * Before them, the secrets the gateway knows it holds ({@link #known}: its deployments' keys, the
 * master key) are masked with their echoes ({@link SecretEchoes}): in any case,
 * base64- or percent-encoded, or any run of {@value SecretEchoes#RUN} or more of their characters.
 */
public final class SecretMask {
    /** What a secret is replaced with. */
    public static final String MASK = "****";

    /**
     * The fewest characters after {@code sk-} that make a key. Four, because LiteLLM's own
     * example master key is {@code sk-1234}, and people deploy examples.
     */
    static final int MIN_KEY_CHARS = 4;

    private static final Pattern URL_CREDENTIALS =
            Pattern.compile("(?i)\\b([a-z][a-z0-9+.-]*://[^\\s/:@]*:)([^\\s/]+)@");
    private static final Pattern NAMED = Pattern.compile("(?i)(?<![A-Za-z0-9_-])"
            + "(password|passwd|pwd|client[_-]?secret|secret|x-api-key|api[_-]?key|master[_-]?key|authorization)"
            + "([\"']?(?:\\s*=|\\s*:\\s*)[\"']?)"
            + "((?:bearer|basic|token)\\s+)?"
            + "([^\\s\"'&,;}]+)");
    private static final Pattern BEARER = Pattern.compile("(?i)\\b(bearer\\s+)([A-Za-z0-9._~+/=-]+)");
    private static final Pattern KEY = Pattern.compile("(?<![A-Za-z0-9_-])sk-[A-Za-z0-9_-]{" + MIN_KEY_CHARS + ",}");

    private static final java.util.Map<Known, java.util.List<String>> HELD = new java.util.LinkedHashMap<>();
    private static volatile SecretEchoes known = SecretEchoes.NONE;

    private SecretMask() {}

    /**
     * The secrets one holder (a running gateway) has: masked with their echoes in every line and
     * payload while it holds them, and no longer once it closes, so gateways started one after
     * another in a process (tests) do not mask each other's text.
     */
    public static final class Known implements AutoCloseable {
        private Known() {}

        /** Replaces what this holder has with {@code secrets}. */
        public void hold(java.util.Collection<String> secrets) {
            synchronized (HELD) {
                HELD.put(this, secrets.stream().filter(s -> s != null && s.length() >= SecretEchoes.SHORTEST).distinct().toList());
                rebuild();
            }
        }

        @Override
        public void close() {
            synchronized (HELD) {
                HELD.remove(this);
                rebuild();
            }
        }

        private static void rebuild() {
            java.util.Set<String> all = new java.util.LinkedHashSet<>();
            HELD.values().forEach(all::addAll);
            known = all.isEmpty() ? SecretEchoes.NONE : SecretEchoes.built(all);
        }
    }

    /** A new holder of known secrets, holding none yet. */
    public static Known known() {
        return new Known();
    }

    /** {@code text} with every credential the rules find masked; the same string when there is none. */
    public static String mask(String text) {
        if (text == null || text.isEmpty()) {
            return text;
        }
        String masked = known.mask(text);
        masked = URL_CREDENTIALS.matcher(masked).replaceAll(m -> Matcher.quoteReplacement(m.group(1) + MASK + "@"));
        masked = NAMED.matcher(masked).replaceAll(m -> Matcher.quoteReplacement(
                m.group(1) + m.group(2) + (m.group(3) == null ? "" : m.group(3)) + MASK));
        masked = BEARER.matcher(masked).replaceAll(m -> Matcher.quoteReplacement(m.group(1) + MASK));
        masked = KEY.matcher(masked).replaceAll("sk-" + MASK);
        return masked;
    }
}
