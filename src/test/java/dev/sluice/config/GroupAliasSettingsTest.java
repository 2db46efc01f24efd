package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Configs;
import org.junit.jupiter.api.Test;

/**
 * {@code router_settings.model_group_alias} in both of LiteLLM's forms, and a deployment's
 * {@code model_info.access_groups}: read, acted on (so not listed as ignored), and a wrong
 * value named by its path.
 */
class GroupAliasSettingsTest {

    @Test
    void readsTheShortAndTheObjectForm() throws ConfigException {
        SluiceConfig config = Configs.parse(Configs.withSection("""
                router_settings:
                  model_group_alias:
                    gpt-4: gpt-4o
                    gpt-4-mini: {model: gpt-4o-mini, hidden: true}
                """));

        assertThat(config.router().routing().modelGroupAlias()).containsExactly(
                java.util.Map.entry("gpt-4", new GroupAlias("gpt-4o", false)),
                java.util.Map.entry("gpt-4-mini", new GroupAlias("gpt-4o-mini", true)));
        assertThat(config.ignoredKeys()).isEmpty();
    }

    @Test
    void noAliasesUnlessWritten() throws ConfigException {
        assertThat(Configs.parse(Configs.withSection("")).router().routing().modelGroupAlias()).isEmpty();
    }

    @Test
    void aWrongAliasIsNamedByItsPath() {
        assertThat(Configs.problems(Configs.withSection("router_settings: {model_group_alias: [gpt-4]}")))
                .singleElement().asString().startsWith("router_settings.model_group_alias: ");
        assertThat(Configs.problems(Configs.withSection("router_settings: {model_group_alias: {gpt-4: {hidden: true}}}")))
                .singleElement().asString().startsWith("router_settings.model_group_alias.gpt-4.model: ");
        assertThat(Configs.problems(Configs.withSection("router_settings: {model_group_alias: {gpt-4: {model: gpt-4o, hidden: maybe}}}")))
                .singleElement().asString().startsWith("router_settings.model_group_alias.gpt-4.hidden: ");
    }

    @Test
    void accessGroupsAreKeptOnceEachInTheOrderWritten() throws ConfigException {
        ModelInfo info = Configs.parse("""
                model_list:
                  - model_name: gpt-4o
                    litellm_params: {model: openai/gpt-4o}
                    model_info: {access_groups: [beta-models, eu, beta-models]}
                """).deployments().getFirst().info();

        assertThat(info.accessGroups()).containsExactly("beta-models", "eu");
        assertThat(Configs.problems(Configs.withParam("x: 1").replace("      x: 1\n", "") + "    model_info: {access_groups: beta}\n"))
                .singleElement().asString().startsWith("model_list[0].model_info.access_groups: ");
    }
}
