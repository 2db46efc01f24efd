package dev.sluice.http;

/**
 * The version Sluice names itself by in {@code x-litellm-version}. It is Sluice's own version,
 * not a LiteLLM version it would pretend to be, written as PEP 440 reads it ({@code 0.1.0.dev0}
 * for a snapshot) because LiteLLM's clients parse the header with Python's {@code packaging}.
 * A test holds it to the version in {@code pom.xml}.
 */
public final class SluiceVersion {
    /** The header every model call's answer carries it in, errors included. */
    public static final String HEADER = "x-litellm-version";
    public static final String CURRENT = "0.1.0.dev0";

    private SluiceVersion() {}
}
