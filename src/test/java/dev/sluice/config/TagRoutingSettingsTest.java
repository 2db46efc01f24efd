package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.testing.Configs;
import dev.sluice.wire.Json;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The keys of tag-based routing (each value's rule, on both sides, is checked with the other
 * params and router settings in {@link LitellmParamsValidationTest} and {@link RouterSettingsTest}): a deployment's {@code litellm_params.tags}, and
 * {@code router_settings.enable_tag_filtering} (off unless written; the only one of the two
 * that changes at run time, as in LiteLLM) and {@code tag_filtering_match_any} (on unless
 * written). Neither router setting is read from {@code litellm_settings}, where LiteLLM does not
 * read them either.
 */
class TagRoutingSettingsTest {

    @Test
    void aTagOf255CharactersIsTakenAndOneOf256IsNot() {
        assertThat(Configs.problemsOrNone(Configs.withParam("tags: [" + "t".repeat(255) + "]"))).isEmpty();
        assertThat(Configs.problems(Configs.withParam("tags: [" + "t".repeat(256) + "]"))).singleElement().asString()
                .startsWith("model_list[0].litellm_params.tags[0]: ").endsWith("(expected: a non-empty string of at most 255 "
                        + "characters without surrounding spaces)");
    }

    @Test
    void keepsEachTagOnceInTheOrderWrittenAndNoneWhenNotWritten() throws ConfigException {
        LitellmParams tagged = Configs.parse(Configs.withParam("tags: [paid, eu, paid, \"7\"]")).deployments().getFirst().params();
        LitellmParams plain = Configs.parse(Configs.withParam("weight: 1")).deployments().getFirst().params();

        assertThat(tagged.tags()).containsExactly("paid", "eu", "7");
        assertThat(plain.tags()).isEmpty();
    }

    @Test
    void tagsAreActedOnSoNoLongerListedAsIgnored() throws ConfigException {
        SluiceConfig config = Configs.parse(Configs.withSection("""
                router_settings: {enable_tag_filtering: true, tag_filtering_match_any: false}
                """).replace("model: openai/gpt-4o\n", "model: openai/gpt-4o\n      tags: [paid]\n"));

        assertThat(config.ignoredKeys()).isEmpty();
        assertThat(config.deployments().getFirst().params().tags()).containsExactly("paid");
    }

    @Test
    void filteringIsOffAndMatchingAnyTagUnlessWritten() throws ConfigException {
        RouterSettings router = Configs.parse(Configs.withSection("")).router();

        assertThat(router.preCallChecks().enableTagFiltering()).isFalse();
        assertThat(router.preCallChecks().tagFilteringMatchAny()).isTrue();
        assertThat(router.sources()).contains(entry("enable_tag_filtering", "default"), entry("tag_filtering_match_any", "default"));
    }

    @Test
    void readsBothFromRouterSettingsAndFromAVariable() throws ConfigException {
        RouterSettings router = Configs.parse(Configs.withSection("""
                router_settings:
                  enable_tag_filtering: os.environ/TAG_ROUTING
                  tag_filtering_match_any: false
                """), Map.of("TAG_ROUTING", "True")).router();

        assertThat(router.preCallChecks().enableTagFiltering()).isTrue();
        assertThat(router.preCallChecks().tagFilteringMatchAny()).isFalse();
        assertThat(router.sources()).contains(entry("enable_tag_filtering", "router_settings"),
                entry("tag_filtering_match_any", "router_settings"));
    }

    @Test
    void litellmSettingsDoesNotSetThemAndSaysSo() throws ConfigException {
        SluiceConfig config = Configs.parse(Configs.withSection("""
                litellm_settings: {enable_tag_filtering: true, tag_filtering_match_any: false}
                """));

        assertThat(config.router().preCallChecks().enableTagFiltering()).isFalse();
        assertThat(config.router().preCallChecks().tagFilteringMatchAny()).isTrue();
        assertThat(config.ignoredKeys()).containsExactly("litellm_settings.enable_tag_filtering",
                "litellm_settings.tag_filtering_match_any");
    }

    @Test
    void checkConfigAndTheSettingsApiShowThem() throws ConfigException {
        SluiceConfig config = Configs.parse(Configs.withSection("router_settings: {enable_tag_filtering: true}")
                .replace("model: openai/gpt-4o-mini\n", "model: openai/gpt-4o-mini\n      tags: [free, default]\n"));

        String printed = ConfigPrinter.print(config);
        assertThat(printed).contains("      tags: [free, default]\n", "  enable_tag_filtering: true  # router_settings\n",
                "  tag_filtering_match_any: true  # default\n");
        assertThat(RouterSettingsJson.values(config.router())).contains(
                entry("enable_tag_filtering", Json.MAPPER.getNodeFactory().booleanNode(true)),
                entry("tag_filtering_match_any", Json.MAPPER.getNodeFactory().booleanNode(true)));
    }

    @Test
    void enableTagFilteringChangesAtRunTimeAndMatchAnyOnlyInTheFile() throws Exception {
        RouterSettings file = Configs.parse(Configs.withSection("")).router();
        Set<String> known = file.sources().keySet();

        RouterSettingOverrides.Change on = RouterSettingOverrides.readChange(
                (ObjectNode) Json.MAPPER.readTree("{\"enable_tag_filtering\": true}"), known, Set.of());
        RouterSettings served = RouterSettingOverrides.NONE.with(on).applyTo(file);
        assertThat(served.preCallChecks().enableTagFiltering()).isTrue();
        assertThat(served.sources()).contains(entry("enable_tag_filtering", "database"));
        assertThat(RouterSettingOverrides.NONE.with(on).values().get("enable_tag_filtering").isBoolean()).isTrue();

        assertRefused("{\"enable_tag_filtering\": \"yes\"}", known, "enable_tag_filtering: \"yes\" (expected: true or false)");
        assertRefused("{\"enable_tag_filtering\": 1}", known, "enable_tag_filtering: 1 (expected: true or false)");
        assertRefused("{\"tag_filtering_match_any\": false}", known, "tag_filtering_match_any: set in the config file only");
    }

    private static void assertRefused(String body, Set<String> known, String problem) {
        assertThatThrownBy(() -> RouterSettingOverrides.readChange(
                        (ObjectNode) Json.MAPPER.readTree(body), known, Set.of()))
                .isInstanceOf(RouterSettingOverrides.InvalidChange.class).hasMessageContaining(problem);
    }
}
