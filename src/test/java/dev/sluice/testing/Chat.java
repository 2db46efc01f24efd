package dev.sluice.testing;

/** Small request bodies for tests. */
public final class Chat {
    private Chat() {}

    /** A chat completion body for {@code model} with one user message. */
    public static String body(String model, String message) {
        return "{\"model\":\"" + model + "\",\"messages\":[{\"role\":\"user\",\"content\":\"" + message + "\"}]}";
    }

    /** The same, streaming. */
    public static String stream(String model, String message) {
        return "{\"model\":\"" + model + "\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"" + message + "\"}]}";
    }
}
