package dev.sluice.fuzz;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;

/**
 * What a fuzzed request presents as its caller, drawn from a seeded random: the master key,
 * a virtual key, nothing, or an admin UI session cookie ({@code sluice_session_<port>}) that
 * may be valid, cut, flipped, empty, huge or under another name, with an {@code X-CSRF-Token}
 * that may be the session's, another session's, mangled or missing.
 *
 * @param master      the master key
 * @param key         a virtual key
 * @param cookieName  the session cookie's name for the gateway's address
 * @param sessions    sealed sessions of the master key and the virtual key, as signed in
 * @param csrfTokens  their CSRF tokens, in the same order
 */
record Credentials(String master, String key, String cookieName, List<String> sessions, List<String> csrfTokens) {

    /** The request headers, as name and value pairs. */
    List<String> draw(Random random) {
        List<String> headers = new ArrayList<>();
        int who = random.nextInt(100);
        if (who < 45) {
            bearer(headers, master);
        } else if (who < 65) {
            bearer(headers, key);
        } else if (who < 75) {
            return headers;
        } else {
            if (random.nextInt(5) == 0) {
                bearer(headers, random.nextBoolean() ? master : key);
            }
            int session = random.nextInt(sessions.size());
            headers.add("Cookie");
            headers.add(cookie(random, session));
            csrf(random, session).ifPresent(token -> {
                headers.add("X-CSRF-Token");
                headers.add(token);
            });
        }
        return headers;
    }

    /** A {@code Cookie} header holding a session, whole or mutated. */
    String cookie(Random random, int session) {
        String sealed = sessions.get(session);
        String name = switch (random.nextInt(10)) {
            case 0 -> "sluice_session";
            case 1 -> "sluice_session_1";
            case 2 -> cookieName.toUpperCase();
            default -> cookieName;
        };
        String value = switch (random.nextInt(12)) {
            case 0 -> sealed.substring(0, random.nextInt(sealed.length()));
            case 1 -> flipped(random, sealed);
            case 2 -> "";
            case 3 -> "x".repeat(1 + random.nextInt(6_000));
            case 4 -> sealed + sealed;
            case 5 -> "\"" + sealed + "\"";
            case 6 -> "%ZZ" + sealed;
            case 7 -> "AAAA.BBBB.CCCC";
            default -> sealed;
        };
        String pair = name + "=" + value;
        return switch (random.nextInt(6)) {
            case 0 -> "other=1; " + pair;
            case 1 -> pair + "; " + cookieName + "=" + sessions.get((session + 1) % sessions.size());
            case 2 -> pair + ";;; =; ;";
            default -> pair;
        };
    }

    /** An {@code X-CSRF-Token} for a request carrying {@code session}'s cookie; empty for none. */
    Optional<String> csrf(Random random, int session) {
        String token = csrfTokens.get(session);
        return switch (random.nextInt(8)) {
            case 0 -> Optional.empty();
            case 1 -> Optional.of("");
            case 2 -> Optional.of(csrfTokens.get((session + 1) % csrfTokens.size()));
            case 3 -> Optional.of(flipped(random, token));
            case 4 -> Optional.of(token + " " + token);
            case 5 -> Optional.of("y".repeat(1 + random.nextInt(3_000)));
            default -> Optional.of(token);
        };
    }

    private static void bearer(List<String> headers, String value) {
        headers.add("Authorization");
        headers.add("Bearer " + value);
    }

    /** {@code text} with one printable character changed. */
    private static String flipped(Random random, String text) {
        if (text.isEmpty()) {
            return "x";
        }
        char[] chars = text.toCharArray();
        int at = random.nextInt(chars.length);
        chars[at] = (char) ('!' + (chars[at] + 1 + random.nextInt(90) - '!') % 94);
        return new String(chars);
    }
}
