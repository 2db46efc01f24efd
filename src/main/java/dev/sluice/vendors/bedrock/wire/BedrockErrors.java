package dev.sluice.vendors.bedrock.wire;

import java.util.Locale;

/**
 * AWS's names for Bedrock's errors. An HTTP answer names its error in {@code x-amzn-ErrorType}
 * ({@code ThrottlingException:http://internal.amazon.com/coral/...}); a stream's exception
 * frame in {@code :exception-type}, as the member of the stream's union
 * ({@code throttlingException}). Both read as the same name, {@code ThrottlingException}.
 */
public final class BedrockErrors {
    private BedrockErrors() {}

    /** The exception's name from either spelling, without the namespace AWS may append after a colon. */
    public static String exceptionName(String written) {
        String name = written.strip();
        int colon = name.indexOf(':');
        if (colon >= 0) {
            name = name.substring(0, colon);
        }
        int hash = name.lastIndexOf('#');
        if (hash >= 0) {
            name = name.substring(hash + 1);
        }
        if (name.isEmpty()) {
            return name;
        }
        return name.substring(0, 1).toUpperCase(Locale.ROOT) + name.substring(1);
    }

    /** Whether a {@code ValidationException}'s message says the prompt does not fit the model's window. */
    public static boolean saysTooLong(String message) {
        String text = message.toLowerCase(Locale.ROOT);
        return text.contains("input is too long") || text.contains("too many input tokens")
                || text.contains("prompt is too long") || text.contains("too many total text bytes");
    }
}
