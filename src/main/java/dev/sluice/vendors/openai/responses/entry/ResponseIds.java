package dev.sluice.vendors.openai.responses.entry;

import java.security.SecureRandom;
import java.util.HexFormat;

/** New response ids, {@code resp_} and 24 random bytes in hex: unguessable, as another key's response must stay unfound. */
public final class ResponseIds {
    private static final SecureRandom RANDOM = new SecureRandom();

    private ResponseIds() {}

    public static String next() {
        byte[] bytes = new byte[24];
        RANDOM.nextBytes(bytes);
        return "resp_" + HexFormat.of().formatHex(bytes);
    }
}
