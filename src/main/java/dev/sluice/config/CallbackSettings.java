package dev.sluice.config;

import java.util.EnumSet;
import java.util.Set;

/**
 * Which logging callbacks see which calls, from {@code litellm_settings}: those of
 * {@code success_callback} see served calls, those of {@code failure_callback} failed ones,
 * and those of {@code callbacks} both, as in LiteLLM.
 *
 * @param onSuccess      the callbacks told of every served call
 * @param onFailure      the callbacks told of every failed call
 * @param messageLogging false with {@code turn_off_message_logging: true}: no prompt or answer
 *                       reaches any callback
 */
public record CallbackSettings(Set<LoggingCallback> onSuccess, Set<LoggingCallback> onFailure, boolean messageLogging) {
    /** No callback: the call path does nothing for them. */
    public static final CallbackSettings NONE = new CallbackSettings(Set.of(), Set.of(), true);

    public CallbackSettings {
        onSuccess = Set.copyOf(onSuccess);
        onFailure = Set.copyOf(onFailure);
    }

    /** Every callback configured, whatever calls it sees. */
    public Set<LoggingCallback> all() {
        EnumSet<LoggingCallback> all = EnumSet.noneOf(LoggingCallback.class);
        all.addAll(onSuccess);
        all.addAll(onFailure);
        return all;
    }

    public boolean any() {
        return !onSuccess.isEmpty() || !onFailure.isEmpty();
    }
}
