package dev.sluice.ops.logging;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Masks known secrets (a deployment's key, a token it was sent with) in text that may echo them
 * altered: an upstream quotes the key it refused upper-cased, cut short, base64-encoded (inside
 * a {@code Basic} header), percent-encoded (inside a URL) or split across two strings. Found are:
 * <ul>
 *   <li>the secret in any letter case;</li>
 *   <li>its base64 encodings (standard and URL-safe, at each of the three alignments it can
 *       have inside a longer encoded text) and its percent-encoding;</li>
 *   <li>any run of {@value #RUN} or more characters that stands in one of those forms, in any
 *       letter case: a truncated or split echo. A run of {@value #RUN} minus one is ordinary text
 *       and is left alone.</li>
 * </ul>
 * A form shorter than {@value #RUN} (a short key) is found only whole. Secrets shorter than
 * {@value #SHORTEST} characters are not looked for: they would match ordinary text. What is
 * found becomes {@code ****}, or, when it is a whole secret, {@code ****} and its last four
 * characters as {@link dev.sluice.config.Secret#masked()} shows it.
 *
 * <p>Design notes. Everything about the secrets is worked out once, when the set is built
 * ({@link #of} keeps the sets it built): every {@value #RUN}-character window of every form,
 * lower-cased, in a table of their polynomial hashes. Masking a text is then one pass: a rolling
 * hash of its lower-cased windows looked up in that table, a hit confirmed against the windows
 * themselves, and confirmed windows merged into runs. A text that holds no secret costs that
 * pass and allocates nothing but its lower-cased copy.
 */
public final class SecretEchoes {
    /** The fewest characters of a secret, in a row, that are masked when found outside the whole secret. */
    public static final int RUN = 12;
    static final int SHORTEST = 4;
    private static final String MASK = SecretMask.MASK;
    private static final long BASE = 1_000_003L;
    private static final long BASE_POWER = power(BASE, RUN - 1);
    private static final int MAX_CACHED = 1024;
    private static final Map<List<String>, SecretEchoes> BUILT = new ConcurrentHashMap<>();

    /** Masks nothing. */
    public static final SecretEchoes NONE = new SecretEchoes(List.of());

    private final HashTable hashes = new HashTable();
    private final Set<String> windows = new HashSet<>();
    private final List<String> shortForms = new ArrayList<>();
    private final Map<String, String> wholeSecrets = new HashMap<>();

    private SecretEchoes(Collection<String> secrets) {
        for (String secret : secrets) {
            if (secret == null || secret.length() < SHORTEST) {
                continue;
            }
            wholeSecrets.put(lower(secret), secret.length() <= 8 ? MASK : MASK + secret.substring(secret.length() - 4));
            for (String form : forms(secret)) {
                String lowered = lower(form);
                if (lowered.length() < RUN) {
                    if (lowered.length() >= SHORTEST) {
                        shortForms.add(lowered);
                    }
                    continue;
                }
                for (int i = 0; i + RUN <= lowered.length(); i++) {
                    String window = lowered.substring(i, i + RUN);
                    if (windows.add(window)) {
                        hashes.add(hash(window, 0));
                    }
                }
            }
        }
    }

    /** The masker of {@code secrets}, built once for each set and kept (a bounded number of sets). */
    public static SecretEchoes of(List<String> secrets) {
        if (secrets.isEmpty()) {
            return NONE;
        }
        SecretEchoes built = BUILT.get(secrets);
        if (built == null) {
            if (BUILT.size() >= MAX_CACHED) {
                BUILT.clear(); // rotated tokens pile up slowly; rebuilding the few in use is cheap
            }
            built = new SecretEchoes(secrets);
            BUILT.put(List.copyOf(secrets), built);
        }
        return built;
    }

    /** A masker of {@code secrets} built now and not kept: for a set that changes, as the log's known secrets do. */
    static SecretEchoes built(Collection<String> secrets) {
        return new SecretEchoes(List.copyOf(secrets));
    }

    /** Whether there is no secret to look for. */
    public boolean isEmpty() {
        return windows.isEmpty() && shortForms.isEmpty();
    }

    /** {@code text} with every echo of the secrets masked; the same string when there is none. */
    public String mask(String text) {
        if (text == null || text.length() < SHORTEST || isEmpty()) {
            return text;
        }
        char[] lowered = new char[text.length()];
        for (int i = 0; i < lowered.length; i++) {
            lowered[i] = Character.toLowerCase(text.charAt(i));
        }
        boolean[] covered = coverRuns(lowered, null);
        covered = coverShortForms(lowered, covered);
        return covered == null ? text : masked(text, lowered, covered);
    }

    private boolean[] coverRuns(char[] text, boolean[] covered) {
        if (windows.isEmpty() || text.length < RUN) {
            return covered;
        }
        long hash = 0;
        for (int i = 0; i < RUN; i++) {
            hash = hash * BASE + text[i];
        }
        for (int start = 0; ; start++) {
            if (hashes.contains(hash) && windows.contains(new String(text, start, RUN))) {
                covered = covered == null ? new boolean[text.length] : covered;
                java.util.Arrays.fill(covered, start, start + RUN, true);
            }
            if (start + RUN >= text.length) {
                return covered;
            }
            hash = (hash - text[start] * BASE_POWER) * BASE + text[start + RUN];
        }
    }

    private boolean[] coverShortForms(char[] text, boolean[] covered) {
        if (shortForms.isEmpty()) {
            return covered;
        }
        String lowered = new String(text);
        for (String form : shortForms) {
            for (int at = lowered.indexOf(form); at >= 0; at = lowered.indexOf(form, at + 1)) {
                covered = covered == null ? new boolean[text.length] : covered;
                java.util.Arrays.fill(covered, at, at + form.length(), true);
            }
        }
        return covered;
    }

    private String masked(String text, char[] lowered, boolean[] covered) {
        StringBuilder shown = new StringBuilder(text.length());
        int i = 0;
        while (i < text.length()) {
            if (!covered[i]) {
                shown.append(text.charAt(i++));
                continue;
            }
            int end = i;
            while (end < text.length() && covered[end]) {
                end++;
            }
            shown.append(wholeSecrets.getOrDefault(new String(lowered, i, end - i), MASK));
            i = end;
        }
        return shown.toString();
    }

    /** The secret as written, percent-encoded, and base64-encoded (standard and URL-safe) at each alignment. */
    static Set<String> forms(String secret) {
        Set<String> forms = new LinkedHashSet<>();
        forms.add(secret);
        forms.add(URLEncoder.encode(secret, StandardCharsets.UTF_8));
        forms.add(URLEncoder.encode(secret, StandardCharsets.UTF_8).replace("+", "%20"));
        byte[] bytes = secret.getBytes(StandardCharsets.UTF_8);
        for (int offset = 0; offset < 3; offset++) {
            byte[] aligned = new byte[offset + bytes.length];
            System.arraycopy(bytes, 0, aligned, offset, bytes.length);
            String encoded = Base64.getEncoder().withoutPadding().encodeToString(aligned);
            // Only the characters made of the secret's bits alone: the first and last may share bits with neighbours.
            int first = (8 * offset + 5) / 6;
            int last = 8 * (offset + bytes.length) / 6;
            if (last - first >= SHORTEST) {
                String middle = encoded.substring(first, last);
                forms.add(middle);
                forms.add(middle.replace('+', '-').replace('/', '_'));
            }
        }
        return forms;
    }

    private static String lower(String text) {
        char[] lowered = new char[text.length()];
        for (int i = 0; i < lowered.length; i++) {
            lowered[i] = Character.toLowerCase(text.charAt(i));
        }
        return new String(lowered);
    }

    private static long hash(String window, int from) {
        long hash = 0;
        for (int i = from; i < from + RUN; i++) {
            hash = hash * BASE + window.charAt(i);
        }
        return hash;
    }

    private static long power(long base, int exponent) {
        long result = 1;
        for (int i = 0; i < exponent; i++) {
            result *= base;
        }
        return result;
    }

    /** A set of longs with open addressing: looked up once per character of a text, so it must not box. */
    private static final class HashTable {
        private long[] slots = new long[16];
        private boolean[] used = new boolean[16];
        private int size;

        void add(long value) {
            if (contains(value)) {
                return;
            }
            if (2 * (size + 1) > slots.length) {
                grow();
            }
            insert(value);
        }

        boolean contains(long value) {
            int mask = slots.length - 1;
            for (int i = spread(value) & mask; used[i]; i = (i + 1) & mask) {
                if (slots[i] == value) {
                    return true;
                }
            }
            return false;
        }

        private void insert(long value) {
            int mask = slots.length - 1;
            int i = spread(value) & mask;
            while (used[i]) {
                i = (i + 1) & mask;
            }
            slots[i] = value;
            used[i] = true;
            size++;
        }

        private void grow() {
            long[] oldSlots = slots;
            boolean[] oldUsed = used;
            slots = new long[oldSlots.length * 2];
            used = new boolean[oldSlots.length * 2];
            size = 0;
            for (int i = 0; i < oldSlots.length; i++) {
                if (oldUsed[i]) {
                    insert(oldSlots[i]);
                }
            }
        }

        private static int spread(long value) {
            long mixed = value * 0x9E3779B97F4A7C15L;
            return (int) (mixed ^ (mixed >>> 32));
        }
    }
}
