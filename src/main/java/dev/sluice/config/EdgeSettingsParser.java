package dev.sluice.config;

import dev.sluice.wire.JsonLimits;
import java.util.OptionalLong;
import java.util.function.ToLongFunction;

/** Reads the {@code general_settings} keys of {@link EdgeSettings}. */
record EdgeSettingsParser(FieldReader read) {
    private static final String NETWORK = "a network in CIDR form, such as 10.0.0.0/8 or 192.168.1.10/32";

    EdgeSettings parse(Section general, ToLongFunction<ConfigNode> megabytes) {
        ConfigNode budget = general.take("max_buffered_request_mb");
        return new EdgeSettings(
                read.positiveSeconds(general.take("request_head_timeout_seconds")).orElse(EdgeSettings.DEFAULT_REQUEST_HEAD_TIMEOUT),
                read.positiveInt(general.take("max_open_connections")),
                budget.isAbsent() ? OptionalLong.empty() : OptionalLong.of(megabytes.applyAsLong(budget)),
                new EdgeSettings.ConnectionSettings(
                        read.positiveInt(general.take("max_connections_per_ip"))
                                .orElse(EdgeSettings.ConnectionSettings.DEFAULT_MAX_PER_ADDRESS),
                        read.networks(general.take("trusted_proxies"), NETWORK),
                        read.positiveSeconds(general.take("keep_alive_timeout_seconds"))
                                .orElse(EdgeSettings.ConnectionSettings.DEFAULT_KEEP_ALIVE_TIMEOUT)),
                read.positiveSeconds(general.take("request_body_timeout_seconds")).orElse(EdgeSettings.DEFAULT_REQUEST_BODY_TIMEOUT),
                new JsonLimits(read.positiveInt(general.take("max_json_depth")).orElse(JsonLimits.DEFAULT_MAX_DEPTH),
                        read.positiveInt(general.take("max_json_tokens")).orElse((int) JsonLimits.DEFAULT_MAX_TOKENS)),
                read.positiveInt(general.take("global_max_parallel_requests")),
                read.nonNegativeSeconds(general.take("liveness_exit_after_seconds")).orElse(EdgeSettings.DEFAULT_LIVENESS_EXIT_AFTER));
    }

}
