package dev.sluice.ops.logging;

import java.util.Locale;
import java.util.Map;

/**
 * How log lines are written on stderr: {@link #PLAIN} text for a person, the default, or
 * {@link #JSON} lines for a log pipeline. LiteLLM's switches turn JSON on: the environment
 * variable {@code JSON_LOGS=True} (read by {@code logback.xml}) or
 * {@code litellm_settings.json_logs: true} in the config (applied once the config is read).
 */
public enum LogFormat {
    PLAIN,
    JSON;

    /** The environment variable LiteLLM reads. */
    public static final String VARIABLE = "JSON_LOGS";

    /** JSON for {@code true} in any case ({@code True}, as LiteLLM's docs write it) or {@code 1}; else plain. */
    public static LogFormat ofSwitch(String value) {
        if (value == null) {
            return PLAIN;
        }
        String text = value.strip().toLowerCase(Locale.ROOT);
        return text.equals("true") || text.equals("1") ? JSON : PLAIN;
    }

    /** The format {@link #VARIABLE} asks for in {@code env}. */
    public static LogFormat fromEnvironment(Map<String, String> env) {
        return ofSwitch(env.get(VARIABLE));
    }
}
