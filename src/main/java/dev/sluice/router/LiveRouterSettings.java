package dev.sluice.router;

import dev.sluice.config.RouterSettingOverrides;
import dev.sluice.config.RouterSettings;
import java.util.Objects;

/**
 * The router settings in effect now: the config file's, with the values stored through the
 * router settings API over them ({@link RouterSettingOverrides}).
 *
 * <h2>Design notes</h2>
 * {@link RouterSettings} stays an immutable value; what changes at run time is which value is
 * served. A change builds a whole new {@code RouterSettings} and swaps it in with one volatile
 * write, so no reader ever sees half of a change (a new {@code fallbacks} with the old
 * {@code num_retries}, say).
 *
 * <p>Readers take {@link #current()} once and keep what they got for as long as one decision
 * needs it: {@link Router#route} takes it once per request and hands it to the request's
 * {@link AttemptLoop} (and through {@link AttemptPlan} to the provider call), so one request
 * routes, retries, times out and falls back by one consistent set from start to end, even
 * when a change lands while it runs; the next request sees the change. {@link Cooldowns}
 * takes it once per failure it judges, and the readers of the request body (the caller's
 * caps, whether to count tokens) once per request. A caller's own overrides
 * ({@code router_settings_override}, a team's {@code router_settings}) stay per request and
 * apply over whichever set the request took.
 *
 * <p>Settings read once at start-up to build something long-lived (the Redis link,
 * {@code routing_strategy_args}, the pre-call checks) are not among those that change at run
 * time, so reading them from the file's settings stays right.
 */
public final class LiveRouterSettings {
    private final RouterSettings file;
    private volatile RouterSettings current;

    /** Settings that are the file's until {@link #serve} is called. */
    public LiveRouterSettings(RouterSettings file) {
        this.file = Objects.requireNonNull(file, "file");
        this.current = file;
    }

    /** The settings in effect now. Take once per request or decision, and keep. */
    public RouterSettings current() {
        return current;
    }

    /** The config file's settings, with no stored value over them. */
    public RouterSettings file() {
        return file;
    }

    /** From now on, serves the file's settings with {@code overrides} over them. */
    public void serve(RouterSettingOverrides overrides) {
        current = overrides.applyTo(file);
    }
}
