package dev.sluice.admin;

import dev.sluice.store.VirtualKey;
import java.util.regex.Pattern;

/**
 * How the key API names a key: by the key itself ({@code sk-...}) or by its token, the
 * SHA-256 hex the store keeps, as LiteLLM accepts either. The two cannot be confused: a
 * key starts with {@code sk-}, a token is 64 lowercase hex digits.
 */
final class KeyIds {
    private static final Pattern TOKEN = Pattern.compile("[0-9a-f]{64}");

    private KeyIds() {}

    /** The token of the key named by {@code keyOrToken}. */
    static String tokenOf(String keyOrToken) {
        return TOKEN.matcher(keyOrToken).matches() ? keyOrToken : VirtualKey.hash(keyOrToken);
    }
}
