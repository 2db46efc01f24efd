package dev.sluice.ops.callbacks;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A record as OpenTelemetry's GenAI conventions describe it; prompts and answers only with message logging on, masked. */
class GenAiAttributesTest {

    @Test
    void aSettledCallHasTheGenAiAttributes() {
        Attributes attributes = GenAiAttributes.of(Records.served("c"), false, true);

        assertThat(attributes.get(GenAiAttributes.SYSTEM)).isEqualTo("openai");
        assertThat(attributes.get(GenAiAttributes.OPERATION)).isEqualTo("chat");
        assertThat(attributes.get(GenAiAttributes.REQUEST_MODEL)).isEqualTo("chat");
        assertThat(attributes.get(GenAiAttributes.RESPONSE_MODEL)).isEqualTo("gpt-4o-mini-2024");
        assertThat(attributes.get(GenAiAttributes.INPUT_TOKENS)).isEqualTo(12L);
        assertThat(attributes.get(GenAiAttributes.OUTPUT_TOKENS)).isEqualTo(5L);
        assertThat(attributes.get(GenAiAttributes.FINISH_REASONS)).isEqualTo(List.of("stop"));
        assertThat(attributes.get(GenAiAttributes.TEMPERATURE)).isEqualTo(0.3);
        assertThat(attributes.get(GenAiAttributes.MAX_TOKENS)).isEqualTo(64L);
        assertThat(attributes.get(GenAiAttributes.TOP_P)).isEqualTo(0.9);
        assertThat(attributes.asMap().keySet()).extracting(AttributeKey::getKey)
                .noneMatch(key -> key.startsWith("gen_ai.prompt") || key.startsWith("gen_ai.completion"));
    }

    @Test
    void beforeItIsSettledACallHasNoTokensYetAndAFailureNamesItsErrorType() {
        Attributes attributes = GenAiAttributes.of(Records.failed("c"), false, false);

        assertThat(attributes.get(GenAiAttributes.SYSTEM)).isEqualTo("azure");
        assertThat(attributes.get(GenAiAttributes.ERROR_TYPE)).isEqualTo("RateLimitError");
        assertThat(attributes.get(GenAiAttributes.INPUT_TOKENS)).isNull();
    }

    @Test
    void withMessageLoggingOnThePromptAndTheAnswerAreAttributesMasked() {
        Attributes attributes = GenAiAttributes.of(Records.served("c"), true, true);

        assertThat(attributes.get(AttributeKey.stringKey("gen_ai.prompt.0.role"))).isEqualTo("system");
        assertThat(attributes.get(AttributeKey.stringKey("gen_ai.prompt.1.content"))).isEqualTo("user secret sk-****");
        assertThat(attributes.get(AttributeKey.stringKey("gen_ai.completion.0.content"))).isEqualTo("the answer, with Bearer **** in it");
    }
}
