package dev.sluice.config;

/**
 * One entry of {@code router_settings.model_group_alias}: the model group a name stands for.
 * Written {@code "gpt-4": "gpt-4o"} or {@code "gpt-4": {"model": "gpt-4o", "hidden": true}}.
 *
 * @param model  the group called when a request names the alias
 * @param hidden whether {@code /v1/models} leaves the alias out (it is served all the same)
 */
public record GroupAlias(String model, boolean hidden) {}
