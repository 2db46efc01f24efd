package dev.sluice.admin;

import java.security.SecureRandom;
import java.util.Base64;

/**
 * New virtual keys: {@code sk-} and 22 URL-safe characters, 128 bits from
 * {@link SecureRandom}, the length and alphabet of LiteLLM's generated keys.
 *
 * <p>Unlike the gateway's other randomness this is not injected: a key must be
 * unguessable, so no test or caller may choose the source.
 */
final class NewKeys {
    private static final int RANDOM_BYTES = 16;
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Base64.Encoder URL_SAFE = Base64.getUrlEncoder().withoutPadding();

    private NewKeys() {}

    static String generate() {
        byte[] bytes = new byte[RANDOM_BYTES];
        RANDOM.nextBytes(bytes);
        return "sk-" + URL_SAFE.encodeToString(bytes);
    }
}
