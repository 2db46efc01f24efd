package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Configs;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@code litellm_settings}' logging callbacks as LiteLLM users write them: which calls each
 * callback is told of, the names Sluice acts on and those it lists as not acted on, and the
 * variables a callback cannot start without, checked where the callback is named.
 */
class CallbackSettingsTest {
    private static final Map<String, String> ENV = Map.of(
            "GENERIC_LOGGER_ENDPOINT", "http://logs.example.com/ingest",
            "LANGFUSE_PUBLIC_KEY", "pk-lf-1",
            "LANGFUSE_SECRET_KEY", "sk-lf-secret-value");

    @Test
    void successFailureAndCallbacksSayWhichCallsEachCallbackSees() throws ConfigException {
        SluiceConfig config = Configs.parse(Configs.withSection("""
                litellm_settings:
                  success_callback: ["langfuse"]
                  failure_callback: ["generic_api"]
                  callbacks: ["otel"]
                """), ENV);

        CallbackSettings callbacks = config.callbacks();
        assertThat(callbacks.onSuccess()).containsExactlyInAnyOrder(LoggingCallback.LANGFUSE, LoggingCallback.OTEL);
        assertThat(callbacks.onFailure()).containsExactlyInAnyOrder(LoggingCallback.GENERIC_API, LoggingCallback.OTEL);
        assertThat(callbacks.messageLogging()).isTrue();
        assertThat(config.ignoredKeys()).isEmpty();
    }

    @Test
    void aSingleNameIsAListOfOneAndGenericIsTheGenericApiLoggersOlderName() throws ConfigException {
        SluiceConfig config = Configs.parse(Configs.withSection("""
                litellm_settings:
                  callbacks: generic
                  turn_off_message_logging: true
                """), ENV);

        assertThat(config.callbacks().onSuccess()).isEqualTo(Set.of(LoggingCallback.GENERIC_API));
        assertThat(config.callbacks().onFailure()).isEqualTo(Set.of(LoggingCallback.GENERIC_API));
        assertThat(config.callbacks().messageLogging()).isFalse();
    }

    @Test
    void namesSluiceDoesNotActOnAreListedAsIgnoredWhereTheyAreWritten() throws ConfigException {
        SluiceConfig config = Configs.parse(Configs.withSection("""
                litellm_settings:
                  success_callback: ["datadog", "otel", "custom_callbacks.proxy_handler_instance", "langfuse_otel"]
                  failure_callback: s3
                """), ENV);

        assertThat(config.callbacks().onSuccess()).containsExactlyInAnyOrder(LoggingCallback.OTEL, LoggingCallback.LANGFUSE_OTEL);
        assertThat(config.callbacks().onFailure()).isEmpty();
        assertThat(config.ignoredKeys()).containsExactly("litellm_settings.success_callback[0]",
                "litellm_settings.success_callback[2]", "litellm_settings.failure_callback");
    }

    @Test
    void withoutAnyCallbackNothingIsConfigured() throws ConfigException {
        assertThat(Configs.parse(Configs.withSection("")).callbacks().any()).isFalse();
    }

    @Test
    void aCallbackWithoutTheVariablesItsLoggerNeedsRefusesTheConfigNamingWhereItWasWritten() {
        assertThat(Configs.problems(Configs.withSection("""
                litellm_settings:
                  callbacks: ["otel", "generic_api", "langfuse"]
                """), Map.of("LANGFUSE_SECRET_KEY", "sk-lf-never-shown"))).containsExactly(
                "litellm_settings.callbacks[1]: os.environ/GENERIC_LOGGER_ENDPOINT (expected: the environment variable "
                        + "GENERIC_LOGGER_ENDPOINT to be set)",
                "litellm_settings.callbacks[2]: os.environ/LANGFUSE_PUBLIC_KEY (expected: the environment variable "
                        + "LANGFUSE_PUBLIC_KEY to be set)");
    }

    @Test
    void anEndpointThatIsNotAnHttpUrlIsRefused() {
        assertThat(Configs.problems(Configs.withSection("""
                litellm_settings:
                  success_callback: ["generic_api", "langfuse"]
                """), Map.of("GENERIC_LOGGER_ENDPOINT", "logs.example.com", "LANGFUSE_PUBLIC_KEY", "pk",
                "LANGFUSE_SECRET_KEY", "sk", "LANGFUSE_HOST", "ftp://langfuse.example.com"))).containsExactly(
                "litellm_settings.success_callback[0]: os.environ/GENERIC_LOGGER_ENDPOINT = **** (expected: an absolute "
                        + "http or https URL with a host)",
                "litellm_settings.success_callback[1]: os.environ/LANGFUSE_HOST = **** (expected: an absolute http or "
                        + "https URL with a host)");
    }

    @Test
    void aMapOrAListOfMapsIsNotAListOfNames() {
        assertThat(Configs.problems(Configs.withSection("""
                litellm_settings:
                  success_callback: {langfuse: true}
                  failure_callback: [{name: otel}]
                  turn_off_message_logging: "sometimes"
                """))).containsExactly(
                "litellm_settings.success_callback: a map (expected: a list of callback names, or one name)",
                "litellm_settings.failure_callback[0]: a map (expected: a callback name)",
                "litellm_settings.turn_off_message_logging: \"sometimes\" (expected: true or false)");
    }
}
