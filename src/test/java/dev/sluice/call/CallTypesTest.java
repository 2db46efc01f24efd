package dev.sluice.call;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.sluice.model.Dialect;
import dev.sluice.model.ModelRequest;
import dev.sluice.model.Operation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The {@code call_type} each call is recorded with, as LiteLLM names it. */
class CallTypesTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            CHAT_COMPLETIONS     | acompletion       | chat
            COMPLETIONS          | atext_completion  | text_completion
            EMBEDDINGS           | aembedding        | embeddings
            IMAGE_GENERATIONS    | aimage_generation | image_generation
            AUDIO_SPEECH         | aspeech           | speech
            AUDIO_TRANSCRIPTIONS | atranscription    | transcription
            AUDIO_TRANSLATIONS   | atranscription    | translation
            MODERATIONS          | amoderation       | moderation
            RERANK               | arerank           | rerank
            """)
    void eachOperationHasLiteLlmsCallType(Operation operation, String callType, String genAiOperation) {
        ModelRequest request = new ModelRequest(operation, Dialect.OPENAI, JsonNodeFactory.instance.objectNode(), "g", false);

        assertThat(CallRecordParts.callType(request)).isEqualTo(callType);
        assertThat(CallRecordParts.operation(request)).isEqualTo(genAiOperation);
    }

    @Test
    void onlyTheChatLikeCallsAreServedByEveryVendor() {
        assertThat(Operation.values()).filteredOn(Operation::everyVendorServes)
                .containsExactly(Operation.CHAT_COMPLETIONS, Operation.COMPLETIONS, Operation.EMBEDDINGS, Operation.RESPONSES);
    }
}
