package dev.sluice.router.harness;

import java.util.ArrayList;
import java.util.List;

/**
 * A config file's text, written the way a test thinks of it: groups of deployments by id,
 * then {@code router_settings}. Deployments added by {@link #group} get {@code order} 1, 2, ...
 * in the order given, so the router tries them in that order and draws no randomness to pick
 * one: the seeded draws left are the backoff's jitter.
 */
public final class ConfigText {
    private final List<String> deployments = new ArrayList<>();
    private final List<String> routerSettings = new ArrayList<>();

    public static ConfigText config() {
        return new ConfigText();
    }

    /** A group of plain deployments with these ids, tried in the order given. */
    public ConfigText group(String name, String... ids) {
        for (int i = 0; i < ids.length; i++) {
            deployment(name, ids[i], "order: " + (i + 1), "");
        }
        return this;
    }

    /**
     * One deployment, with more {@code litellm_params} and {@code model_info} as flow-map
     * bodies ({@code "order: 1, timeout: 4"}, {@code "max_input_tokens: 8000"}); either may be empty.
     */
    public ConfigText deployment(String group, String id, String params, String info) {
        deployments.add("""
                  - model_name: %s
                    litellm_params: {model: openai/%s, api_base: 'http://127.0.0.1:9/v1'%s}
                    model_info: {id: %s%s}
                """.formatted(group, id, params.isEmpty() ? "" : ", " + params, id, info.isEmpty() ? "" : ", " + info));
        return this;
    }

    /** One line under {@code router_settings}, e.g. {@code "num_retries: 3"} or {@code "fallbacks: [{chat: [g2]}]"}. */
    public ConfigText router(String setting) {
        routerSettings.add(setting);
        return this;
    }

    public String yaml() {
        StringBuilder yaml = new StringBuilder("model_list:\n");
        deployments.forEach(yaml::append);
        if (!routerSettings.isEmpty()) {
            yaml.append("router_settings:\n");
            routerSettings.forEach(s -> yaml.append("  ").append(s).append('\n'));
        }
        return yaml.toString();
    }
}
