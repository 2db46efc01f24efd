package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Configs;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Credentials never reach an error message, the printed config or a record's toString. */
class SecretsTest {
    static final List<String> SECRETS = List.of(
            "sk-list-secret-0001", "sk-nested-secret-0002", "redis-url-secret-0003",
            "env-secret-0004", "sk-unknown-key-secret-0005");

    @Test
    void problemsShowSecretsAsStars() {
        String yaml = """
                model_list:
                  - model_name: gpt-4o
                    litellm_params:
                      model: openai/gpt-4o
                      api_key: [sk-list-secret-0001]
                      rpm: -1
                  - model_name: gpt-4o
                    litellm_params:
                      model: openai/gpt-4o
                      api_key: os.environ/EMPTY_KEY
                      api_base: os.environ/WRONG_REFERENCE
                router_settings:
                  redis_url: {url: "redis://:redis-url-secret-0003@redis"}
                  redis_password: ""
                litellm_settings:
                  some_plugin_token: sk-unknown-key-secret-0005
                general_settings:
                  master_key: {nested: sk-nested-secret-0002}
                  database_url: true
                """;

        List<String> problems = Configs.problems(yaml, Map.of("EMPTY_KEY", "", "WRONG_REFERENCE", "env-secret-0004"));

        assertThat(problems).containsExactly(
                "model_list[0].litellm_params.api_key: **** (expected: a non-empty string)",
                "model_list[0].litellm_params.rpm: -1 (expected: >= 0)",
                "model_list[1].litellm_params.api_base: os.environ/WRONG_REFERENCE = **** (expected: an absolute http or https URL with a host, a port up to 65535 and no user info, query or fragment)",
                "model_list[1].litellm_params.api_key: os.environ/EMPTY_KEY = **** (expected: a non-empty string)",
                "router_settings.redis_password: **** (expected: a non-empty string)",
                "router_settings.redis_url: **** (expected: a non-empty string)",
                "general_settings.master_key: **** (expected: a non-empty string)",
                "general_settings.database_url: **** (expected: a non-empty string)");
        assertThat(String.join("\n", problems)).doesNotContain(SECRETS);
    }

    @Test
    void thePrintedConfigAndTheRecordsMaskEverySecret() throws ConfigException {
        String yaml = """
                model_list:
                  - model_name: gpt-4o
                    litellm_params:
                      model: openai/gpt-4o
                      api_key: sk-list-secret-0001
                router_settings:
                  redis_password: os.environ/REDIS_SECRET
                  redis_url: redis://:redis-url-secret-0003@redis
                litellm_settings:
                  some_plugin_token: sk-unknown-key-secret-0005
                general_settings:
                  master_key: sk-nested-secret-0002
                """;

        SluiceConfig config = Configs.parse(yaml, Map.of("REDIS_SECRET", "env-secret-0004", "DATABASE_URL", "postgresql://u:pw@db/x"));

        assertThat(ConfigPrinter.print(config)).doesNotContain(SECRETS).doesNotContain("pw@db")
                .contains("api_key: \"****0001\"", "redis_password: \"****0004\"", "redis_url: \"****edis\"",
                        "master_key: \"****0002\"", "database_url: \"****db/x\"");
        assertThat(config.toString()).doesNotContain(SECRETS).doesNotContain("pw@db");
    }
}
