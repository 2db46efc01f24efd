package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.testing.Configs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading the file: unreadable files, syntax errors, and YAML features LiteLLM configs use. */
class YamlReadingTest {
    @TempDir
    Path dir;

    @Test
    void loadsAFile() throws IOException, ConfigException {
        Path file = write("config.yaml", Configs.withSection(""));

        assertThat(ConfigLoader.load(file, Map.of(), Configs.PROVIDERS).deployments()).hasSize(2);
    }

    @Test
    void aMissingFileIsAProblemNamingIt() {
        Path file = dir.resolve("absent.yaml");

        assertThatThrownBy(() -> ConfigLoader.load(file, Map.of(), Configs.PROVIDERS))
                .isInstanceOf(ConfigException.class)
                .hasMessage(file + ": cannot read the config: no such file");
    }

    @Test
    void aDirectoryIsNotAConfig() {
        assertThatThrownBy(() -> ConfigLoader.load(dir, Map.of(), Configs.PROVIDERS))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith(dir + ": cannot read the config: ");
    }

    @Test
    void aFileThatIsNotUtf8IsAProblem() throws IOException {
        Path file = dir.resolve("latin1.yaml");
        Files.write(file, new byte[] {'a', ':', ' ', (byte) 0xE9, '\n'});

        assertThatThrownBy(() -> ConfigLoader.load(file, Map.of(), Configs.PROVIDERS))
                .isInstanceOf(ConfigException.class)
                .hasMessage(file + ": cannot read the config: it is not UTF-8 text");
    }

    @Test
    void aSyntaxErrorNamesTheFileAndLineButNotTheLinesText() throws IOException {
        Path file = write("broken.yaml", """
                model_list:
                  - model_name: gpt-4o
                    litellm_params:
                      model: openai/gpt-4o
                      api_key: sk-live-secret-value: oops
                """);

        assertThatThrownBy(() -> ConfigLoader.load(file, Map.of(), Configs.PROVIDERS))
                .isInstanceOf(ConfigException.class)
                .hasMessage(file + ": line 5, column 36: not valid YAML: mapping values are not allowed here")
                .message().doesNotContain("sk-live-secret-value");
    }

    @Test
    void anUnclosedListIsASyntaxError() {
        assertThat(Configs.problems("model_list: [\n  {model_name: a}\n"))
                .containsExactly("config: line 3, column 1: not valid YAML: while parsing a flow sequence: "
                        + "expected ',' or ']', but got <stream end>");
    }

    @Test
    void tabIndentationIsASyntaxError() {
        assertThat(Configs.problems("model_list:\n\t- model_name: a\n").getFirst())
                .startsWith("config: line 2, column 1: not valid YAML: ");
    }

    @Test
    void aKeyWrittenTwiceInOneMapIsAnError() {
        assertThat(Configs.problems("""
                model_list:
                  - model_name: gpt-4o
                    litellm_params:
                      model: openai/gpt-4o
                      rpm: 10
                      rpm: 20
                """)).containsExactly("config: line 6, column 7: not valid YAML: duplicate key \"rpm\"");
    }

    @Test
    void moreThanOneDocumentIsAnError() {
        assertThat(Configs.problems(Configs.withSection("---\nmodel_list: []")).getFirst())
                .startsWith("config: line ").contains("expected a single document");
    }

    @Test
    void anEmptyFileHasNoModelList() {
        assertThat(Configs.problems("")).containsExactly("model_list: missing (expected: a non-empty list of deployments)");
        assertThat(Configs.problems("# only a comment\n"))
                .containsExactly("model_list: missing (expected: a non-empty list of deployments)");
    }

    @Test
    void aTopLevelThatIsNotAMapIsOneProblem() {
        assertThat(Configs.problems("- model_name: gpt-4o\n"))
                .containsExactly("(top level): a list (expected: a map of sections such as model_list and router_settings)");
    }

    @Test
    void anchorsAliasesAndMergeKeysMeanWhatTheyMeanToLiteLlm() throws ConfigException {
        SluiceConfig config = Configs.parse("""
                x-azure: &azure
                  api_base: &base https://eu.example.com
                  api_version: "2024-06-01"
                  rpm: 100
                model_list:
                  - model_name: gpt-4o
                    litellm_params:
                      <<: *azure
                      model: azure/gpt-4o
                      rpm: 5
                  - model_name: gpt-4o-mini
                    litellm_params:
                      model: azure/gpt-4o-mini
                      api_base: *base
                """);

        LitellmParams first = config.deployments().get(0).params();
        assertThat(first.endpoint().apiBase()).contains("https://eu.example.com");
        assertThat(first.endpoint().apiVersion()).contains("2024-06-01");
        assertThat(first.capacity().rpm()).hasValue(5);
        assertThat(config.deployments().get(1).params().endpoint().apiBase()).contains("https://eu.example.com");
        assertThat(config.ignoredKeys()).containsExactly("x-azure");
    }

    @Test
    void anAliasToItselfIsAnError() {
        assertThat(Configs.problems("a: &loop [*loop]\n"))
                .containsExactly("config: line 1, column 4: not valid YAML: an alias refers to a node that contains it");
    }

    @Test
    void readsValuesWithYaml11TypesAsPyYamlDoes() throws ConfigException {
        SluiceConfig config = Configs.parse(Configs.withSection("""
                router_settings:
                  disable_cooldowns: yes
                  num_retries: 0x3
                  timeout: 1_000
                  redis_password: 123456
                """));

        assertThat(config.router().cooldowns().disableCooldowns()).isTrue();
        assertThat(config.router().retries().numRetries()).isEqualTo(3);
        assertThat(config.router().timeouts().timeout()).hasSeconds(1000);
        assertThat(config.router().redis().redisPassword()).contains(new Secret("123456"));
    }

    private Path write(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text, StandardCharsets.UTF_8);
    }
}
