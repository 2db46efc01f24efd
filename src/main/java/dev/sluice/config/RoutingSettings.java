package dev.sluice.config;

import java.util.Map;

/**
 * How the router picks among a group's deployments, and which names lead to a group.
 *
 * @param routingStrategy     {@code routing_strategy}, by LiteLLM's name (default {@code simple-shuffle})
 * @param routingStrategyArgs strategy tuning as written ({@code ttl}, {@code lowest_latency_buffer}, ...)
 * @param modelGroupAlias     {@code model_group_alias}: each alias to the group it stands for
 */
public record RoutingSettings(
        String routingStrategy,
        Map<String, Object> routingStrategyArgs,
        Map<String, GroupAlias> modelGroupAlias) {

    /** The same settings picking by {@code strategy}. */
    public RoutingSettings withRoutingStrategy(String strategy) {
        return new RoutingSettings(strategy, routingStrategyArgs, modelGroupAlias);
    }
}
