package dev.sluice.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * One router setting that may change while the gateway runs, as a typed key: its name (the
 * same in {@code router_settings} and the router settings API), how a written value is read
 * and checked ({@link RouterVocabulary}, so the file and the API refuse the same values with
 * the same words), the JSON it is stored and shown as, and which part of {@link RouterSettings}
 * it sets.
 *
 * @param <T> the value's type
 */
public final class RouterSetting<T> {
    public static final RouterSetting<String> ROUTING_STRATEGY = new RouterSetting<>(RouterVocabulary.ROUTING_STRATEGY,
            RouterVocabulary::routingStrategy, TextNode::valueOf,
            (settings, strategy) -> settings.withRouting(settings.routing().withRoutingStrategy(strategy)));
    public static final RouterSetting<Integer> NUM_RETRIES = new RouterSetting<>(RouterVocabulary.NUM_RETRIES,
            RouterVocabulary::count, IntNode::valueOf,
            (settings, retries) -> settings.withRetries(settings.retries().withNumRetries(retries)));
    public static final RouterSetting<Duration> TIMEOUT = new RouterSetting<>(RouterVocabulary.TIMEOUT,
            RouterVocabulary::timeout, SettingJson::seconds,
            (settings, timeout) -> settings.withTimeouts(
                    settings.timeouts().withTimeout(timeout, clientTimeoutFollows(settings))));
    public static final RouterSetting<Integer> ALLOWED_FAILS = new RouterSetting<>(RouterVocabulary.ALLOWED_FAILS,
            RouterVocabulary::count, IntNode::valueOf,
            (settings, fails) -> settings.withCooldowns(settings.cooldowns().withAllowedFails(fails)));
    public static final RouterSetting<Duration> COOLDOWN_TIME = new RouterSetting<>(RouterVocabulary.COOLDOWN_TIME,
            RouterVocabulary::cooldownTime, SettingJson::seconds,
            (settings, time) -> settings.withCooldowns(settings.cooldowns().withCooldownTime(time)));
    public static final RouterSetting<Map<String, List<String>>> FALLBACKS = new RouterSetting<>(RouterVocabulary.FALLBACKS,
            RouterVocabulary::fallbacks, SettingJson::fallbackList,
            (settings, fallbacks) -> settings.withFallbacks(settings.fallbacks().withFallbacks(fallbacks)));
    public static final RouterSetting<Map<String, List<String>>> CONTEXT_WINDOW_FALLBACKS = new RouterSetting<>(
            RouterVocabulary.CONTEXT_WINDOW_FALLBACKS, RouterVocabulary::fallbacks, SettingJson::fallbackList,
            (settings, fallbacks) -> settings.withFallbacks(settings.fallbacks().withContextWindowFallbacks(fallbacks)));
    public static final RouterSetting<Map<String, List<String>>> CONTENT_POLICY_FALLBACKS = new RouterSetting<>(
            RouterVocabulary.CONTENT_POLICY_FALLBACKS, RouterVocabulary::fallbacks, SettingJson::fallbackList,
            (settings, fallbacks) -> settings.withFallbacks(settings.fallbacks().withContentPolicyFallbacks(fallbacks)));
    public static final RouterSetting<List<String>> DEFAULT_FALLBACKS = new RouterSetting<>(RouterVocabulary.DEFAULT_FALLBACKS,
            RouterVocabulary::targets, SettingJson::strings,
            (settings, groups) -> settings.withFallbacks(settings.fallbacks().withDefaultFallbacks(groups)));
    public static final RouterSetting<Boolean> ENABLE_TAG_FILTERING = new RouterSetting<>(RouterVocabulary.ENABLE_TAG_FILTERING,
            RouterVocabulary::flag, BooleanNode::valueOf,
            (settings, enabled) -> settings.withPreCallChecks(settings.preCallChecks().withEnableTagFiltering(enabled)));

    /** Every setting that may change at run time, in the order they are listed, stored and shown. */
    public static final List<RouterSetting<?>> UPDATABLE = List.of(ROUTING_STRATEGY, NUM_RETRIES, TIMEOUT, ALLOWED_FAILS,
            COOLDOWN_TIME, FALLBACKS, CONTEXT_WINDOW_FALLBACKS, CONTENT_POLICY_FALLBACKS, DEFAULT_FALLBACKS, ENABLE_TAG_FILTERING);

    private final String name;
    private final BiFunction<RouterVocabulary, Written, Optional<T>> reader;
    private final Function<T, JsonNode> json;
    private final BiFunction<RouterSettings, T, RouterSettings> setter;

    private RouterSetting(String name, BiFunction<RouterVocabulary, Written, Optional<T>> reader, Function<T, JsonNode> json,
            BiFunction<RouterSettings, T, RouterSettings> setter) {
        this.name = name;
        this.reader = reader;
        this.json = json;
        this.setter = setter;
    }

    /** The setting with {@code name}, if it may change at run time. */
    public static Optional<RouterSetting<?>> named(String name) {
        return UPDATABLE.stream().filter(setting -> setting.name.equals(name)).findFirst();
    }

    public String name() {
        return name;
    }

    /**
     * The value written, by the rules of its {@code router_settings} key; empty when wrong, the
     * problem told to {@code written}.
     */
    public Optional<T> read(RouterVocabulary vocabulary, Written written) {
        return reader.apply(vocabulary, written);
    }

    /** The JSON {@code value} is stored and shown as: a duration as seconds, fallbacks in LiteLLM's form. */
    public JsonNode json(T value) {
        return json.apply(value);
    }

    /** {@code settings} with this setting at {@code value}. */
    public RouterSettings with(RouterSettings settings, T value) {
        return setter.apply(settings, value);
    }

    @Override
    public String toString() {
        return name;
    }

    /** A {@code max_client_timeout} the config leaves unset follows the effective {@code timeout}, as at start-up. */
    private static boolean clientTimeoutFollows(RouterSettings settings) {
        return RouterSettingsParser.FROM_DEFAULT.equals(
                settings.sources().getOrDefault("max_client_timeout", RouterSettingsParser.FROM_DEFAULT));
    }
}
