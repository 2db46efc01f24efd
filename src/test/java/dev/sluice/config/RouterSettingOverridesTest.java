package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.testing.Configs;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Router settings changed at run time: read by the file's rules, kept canonical, applied over the file's. */
class RouterSettingOverridesTest {
    private static final Set<String> GROUPS = Set.of("gpt-4o", "gpt-4o-mini");

    private static ObjectNode body(String json) throws IOException {
        return (ObjectNode) Json.parse(json.getBytes());
    }

    private static RouterSettings file(String section) throws ConfigException {
        return Configs.parse(Configs.withSection(section)).router();
    }

    @Test
    void aChangeIsReadByTheFileRulesAndKeptCanonical() throws Exception {
        RouterSettingOverrides.Change change = RouterSettingOverrides.readChange(body("""
                {"num_retries": "3", "timeout": 1.50, "cooldown_time": 0, "routing_strategy": "least-busy",
                 "fallbacks": [{"gpt-4o": ["gpt-4o-mini"]}], "default_fallbacks": ["gpt-4o"], "allowed_fails": null}"""),
                Set.of(), GROUPS);

        assertThat(change.set()).containsOnlyKeys("num_retries", "timeout", "cooldown_time", "routing_strategy", "fallbacks",
                "default_fallbacks");
        assertThat(change.set().get("num_retries").toString()).isEqualTo("3");
        assertThat(change.set().get("timeout").toString()).isEqualTo("1.5");
        assertThat(change.set().get("cooldown_time").toString()).isEqualTo("0");
        assertThat(change.set().get("fallbacks").toString()).isEqualTo("[{\"gpt-4o\":[\"gpt-4o-mini\"]}]");
        assertThat(change.reset()).containsExactly("allowed_fails");
    }

    @Test
    void everyBadFieldIsNamedWithTheFileWords() throws IOException {
        assertThatThrownBy(() -> RouterSettingOverrides.readChange(body("""
                {"num_retries": 1.5, "timeout": 0, "fallbacks": {"gpt-4o": []}, "default_fallbacks": ["nope"],
                 "redis_host": "x", "bogus": 1, "cooldown_time": "os.environ/COOL"}"""), Set.of("redis_host"), GROUPS))
                .isInstanceOfSatisfying(RouterSettingOverrides.InvalidChange.class, e -> {
                    assertThat(e.refusals()).extracting(RouterSettingOverrides.Refusal::name)
                            .containsExactly("num_retries", "timeout", "fallbacks", "default_fallbacks", "redis_host", "bogus",
                                    "cooldown_time");
                    assertThat(e.refusals()).extracting(RouterSettingOverrides.Refusal::kind).containsExactly(
                            RouterSettingOverrides.Refusal.Kind.INVALID, RouterSettingOverrides.Refusal.Kind.INVALID,
                            RouterSettingOverrides.Refusal.Kind.INVALID, RouterSettingOverrides.Refusal.Kind.INVALID,
                            RouterSettingOverrides.Refusal.Kind.NOT_UPDATABLE, RouterSettingOverrides.Refusal.Kind.UNKNOWN,
                            RouterSettingOverrides.Refusal.Kind.INVALID);
                    assertThat(e.getMessage()).contains(
                            "num_retries: 1.5 (expected: an integer >= 0)",
                            "timeout: 0 (expected: > 0)",
                            "fallbacks: a map (expected: a list of single-key maps",
                            "default_fallbacks[0]: nope (expected: a model_name from model_list: gpt-4o, gpt-4o-mini)",
                            "redis_host: set in the config file only",
                            "bogus: not a router setting",
                            "cooldown_time: \"os.environ/COOL\" (expected: a value written out");
                });
    }

    @Test
    void appliedOverTheFileTheyAreTheDatabasesAndTheRestStaysTheFiles() throws Exception {
        RouterSettings file = file("""
                router_settings: {num_retries: 1, allowed_fails: 4, max_fallbacks: 2}
                litellm_settings: {request_timeout: 30}
                """);
        RouterSettingOverrides overrides = RouterSettingOverrides.NONE.with(RouterSettingOverrides.readChange(
                body("{\"num_retries\": 0, \"timeout\": 5, \"fallbacks\": [{\"gpt-4o\": [\"gpt-4o-mini\"]}]}"), Set.of(), GROUPS));

        RouterSettings live = overrides.applyTo(file);
        assertThat(live.retries().numRetries()).isZero();
        assertThat(live.timeouts().timeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(live.timeouts().maxClientTimeout()).as("an unset max_client_timeout follows timeout").isEqualTo(Duration.ofSeconds(5));
        assertThat(live.fallbacks().fallbacks()).containsExactly(Map.entry("gpt-4o", List.of("gpt-4o-mini")));
        assertThat(live.cooldowns().allowedFails()).isEqualTo(4);
        assertThat(live.fallbacks().maxFallbacks()).isEqualTo(2);
        assertThat(live.sources()).containsEntry("num_retries", "database").containsEntry("timeout", "database")
                .containsEntry("fallbacks", "database").containsEntry("allowed_fails", "router_settings")
                .containsEntry("routing_strategy", "default");
        assertThat(RouterSettingsJson.source(live, "allowed_fails")).isEqualTo("config file");
        assertThat(RouterSettingsJson.source(file, "timeout")).isEqualTo("config file");
        assertThat(RouterSettingsJson.configKey(file, "timeout")).hasValue("litellm_settings.request_timeout");

        RouterSettingOverrides back = overrides.with(RouterSettingOverrides.readChange(body("{\"timeout\": null}"), Set.of(), GROUPS));
        assertThat(back.applyTo(file).timeouts().timeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(back.applyTo(file).sources()).containsEntry("timeout", "litellm_settings").containsEntry("num_retries", "database");
    }

    @Test
    void aWrittenMaxClientTimeoutDoesNotFollowTimeout() throws Exception {
        RouterSettings file = file("router_settings: {max_client_timeout: 50}");
        RouterSettings live = RouterSettingOverrides.NONE.with(RouterSettingOverrides.readChange(body("{\"timeout\": 5}"), Set.of(),
                GROUPS)).applyTo(file);
        assertThat(live.timeouts().maxClientTimeout()).isEqualTo(Duration.ofSeconds(50));
    }

    @Test
    void aStoredValueThatNoLongerReadsIsLeftOutAndTheOthersApply() throws Exception {
        Map<String, JsonNode> stored = new LinkedHashMap<>();
        stored.put("num_retries", Json.parse("-2".getBytes()));
        stored.put("cooldown_time", Json.parse("7".getBytes()));
        stored.put("fallbacks", Json.parse("[{\"gpt-4o\": [\"removed-since\"]}]".getBytes()));
        stored.put("max_parallel_requests", Json.parse("3".getBytes()));

        RouterSettingOverrides.Read read = RouterSettingOverrides.readStored(stored);

        assertThat(read.overrides().values()).containsOnlyKeys("cooldown_time", "fallbacks");
        assertThat(read.skipped()).containsExactly("num_retries: -2 (expected: >= 0)",
                "max_parallel_requests: not a setting that changes at run time");
        RouterSettings live = read.overrides().applyTo(file(""));
        assertThat(live.cooldowns().cooldownTime()).isEqualTo(Duration.ofSeconds(7));
        assertThat(live.fallbacks().fallbacks()).as("a group since removed is skipped when a call falls back")
                .containsExactly(Map.entry("gpt-4o", List.of("removed-since")));
        assertThat(live.retries().numRetries()).isEqualTo(2);
    }
}
