package dev.sluice.failure;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class RefusalSignalsTest {

    @Test
    void codeOutranksAPhraseOfTheOtherRefusal() {
        assertThat(RefusalSignals.in(new ErrorBody(List.of("content_filter"), List.of("prompt is too long"))))
                .contains(FailureClass.CONTENT_POLICY);
        assertThat(RefusalSignals.in(new ErrorBody(List.of("context_length_exceeded"), List.of("content filtering policy"))))
                .contains(FailureClass.CONTEXT_WINDOW);
    }

    @Test
    void codesMustMatchWholly() {
        assertThat(RefusalSignals.in(new ErrorBody(List.of("content_filter_results"), List.of()))).isEmpty();
        assertThat(RefusalSignals.in(new ErrorBody(List.of("not_context_length_exceeded_really"), List.of()))).isEmpty();
    }

    @Test
    void phrasesMatchInsideMessages() {
        assertThat(RefusalSignals.in(new ErrorBody(List.of(), List.of("anthropicerror - prompt is too long: 9 > 8"))))
                .contains(FailureClass.CONTEXT_WINDOW);
        assertThat(RefusalSignals.in(new ErrorBody(List.of(), List.of("output blocked by content filtering policy"))))
                .contains(FailureClass.CONTENT_POLICY);
    }

    @Test
    void genericWordsSignalNothing() {
        List<String> ordinary = List.of(
                "invalid value for 'temperature': decimal above maximum value.",
                "max_tokens is too large: 100000. this model supports at most 16384 completion tokens",
                "invalid 'user': string too long. expected a string with maximum length 64",
                "unrecognized request argument supplied: content_filter",
                "rate limit reached for requests",
                "please review our usage policies",
                "missing required parameter: 'policy'.",
                "the content filter configuration 'strict' does not exist",
                "invalid 'safety_identifier': string too long. expected a string with maximum length 64",
                "context: too many tools; the maximum is 128");

        assertThat(RefusalSignals.in(new ErrorBody(List.of(), ordinary))).isEmpty();
    }

    @Test
    void everyPhraseIsLowerCaseSoItCanMatchTheLowerCasedBody() {
        for (List<String> list : List.of(RefusalSignals.CONTEXT_WINDOW_CODES, RefusalSignals.CONTEXT_WINDOW_PHRASES,
                RefusalSignals.CONTENT_POLICY_CODES, RefusalSignals.CONTENT_POLICY_PHRASES)) {
            assertThat(list).allSatisfy(entry -> assertThat(entry).isLowerCase());
        }
    }
}
