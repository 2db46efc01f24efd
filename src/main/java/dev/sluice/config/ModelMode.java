package dev.sluice.config;

import dev.sluice.model.Operation;
import java.util.Optional;

/**
 * LiteLLM's {@code model_info.mode}: what kind of call a deployment serves, which decides how
 * its health is probed and which calls it is sent. A deployment of an image, audio,
 * moderation or rerank mode is sent only its own kind of call, and is never sent a chat-like
 * one; chat, completion and embedding deployments take any chat-like call, as before modes
 * were read. LiteLLM's other modes ({@code responses}, {@code batch}, ...) are listed as not
 * acted on, and such a deployment is probed as a chat deployment.
 */
public enum ModelMode {
    CHAT("chat"),
    COMPLETION("completion"),
    EMBEDDING("embedding"),
    IMAGE_GENERATION("image_generation"),
    AUDIO_SPEECH("audio_speech"),
    AUDIO_TRANSCRIPTION("audio_transcription"),
    MODERATION("moderation"),
    RERANK("rerank");

    private final String configName;

    ModelMode(String configName) {
        this.configName = configName;
    }

    /** The name the config file writes, e.g. {@code embedding}. */
    public String configName() {
        return configName;
    }

    /** Whether a deployment of this mode may be sent {@code operation}. */
    public boolean serves(Operation operation) {
        return switch (this) {
            case CHAT, COMPLETION, EMBEDDING -> operation.everyVendorServes();
            case IMAGE_GENERATION -> operation == Operation.IMAGE_GENERATIONS;
            case AUDIO_SPEECH -> operation == Operation.AUDIO_SPEECH;
            case AUDIO_TRANSCRIPTION -> operation == Operation.AUDIO_TRANSCRIPTIONS
                    || operation == Operation.AUDIO_TRANSLATIONS;
            case MODERATION -> operation == Operation.MODERATIONS;
            case RERANK -> operation == Operation.RERANK;
        };
    }

    static Optional<ModelMode> fromConfigName(String name) {
        for (ModelMode mode : values()) {
            if (mode.configName.equals(name)) {
                return Optional.of(mode);
            }
        }
        return Optional.empty();
    }
}
