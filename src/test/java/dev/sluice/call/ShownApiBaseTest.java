package dev.sluice.call;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What of a deployment's {@code api_base} a caller may see in {@code x-litellm-model-api-base}. */
class ShownApiBaseTest {

    @Test
    void keepsSchemeHostPortAndPath() {
        assertThat(ShownApiBase.of("https://my-azure.openai.azure.com/openai")).isEqualTo("https://my-azure.openai.azure.com/openai");
        assertThat(ShownApiBase.of("http://127.0.0.1:8080")).isEqualTo("http://127.0.0.1:8080");
    }

    @Test
    void dropsAQueryStringThatCanCarryAKey() {
        assertThat(ShownApiBase.of("https://generativelanguage.googleapis.com/v1beta?key=AIza-secret"))
                .isEqualTo("https://generativelanguage.googleapis.com/v1beta");
        assertThat(ShownApiBase.of("https://host/openai?api-version=2024-02-01&api-key=secret")).isEqualTo("https://host/openai");
        assertThat(ShownApiBase.of("https://host/v1#frag")).isEqualTo("https://host/v1");
    }

    @Test
    void dropsUserInfo() {
        assertThat(ShownApiBase.of("https://user:pass@host:8443/v1?key=k")).isEqualTo("https://host:8443/v1");
        assertThat(ShownApiBase.of("http://token@host")).isEqualTo("http://host");
        // An @ in the path is no user info.
        assertThat(ShownApiBase.of("https://host/models/a@b")).isEqualTo("https://host/models/a@b");
    }
}
