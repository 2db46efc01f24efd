package dev.sluice.failure;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;

class ErrorBodyTest {

    @Test
    void openAiShapeGivesCodeAndMessage() {
        ErrorBody body = read("{\"error\":{\"message\":\"Bad Thing\",\"type\":\"invalid_request_error\","
                + "\"param\":\"messages\",\"code\":\"Some_Code\"}}");

        assertThat(body.codes()).containsExactly("some_code");
        assertThat(body.messages()).containsExactly("bad thing");
    }

    @Test
    void azureInnerErrorCodeIsACode() {
        ErrorBody body = read("{\"error\":{\"message\":\"m\",\"code\":\"content_filter\","
                + "\"innererror\":{\"code\":\"ResponsibleAIPolicyViolation\"}}}");

        assertThat(body.codes()).containsExactly("content_filter", "responsibleaipolicyviolation");
    }

    @Test
    void anthropicShapeGivesItsMessageButNotItsTypes() {
        ErrorBody body = read("{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"Too Long\"}}");

        assertThat(body.codes()).isEmpty();
        assertThat(body.messages()).containsExactly("too long");
    }

    @Test
    void fastApiDetailAsTextOrAsAList() {
        assertThat(read("{\"detail\":\"Not Found\"}").messages()).containsExactly("not found");
        assertThat(read("{\"detail\":[{\"msg\":\"A\",\"input\":\"echoed prompt\"},{\"msg\":\"B\"}]}").messages())
                .containsExactly("a", "b");
    }

    @Test
    void topLevelMessageAndBareErrorStringAndBareString() {
        assertThat(read("{\"object\":\"error\",\"message\":\"M\",\"code\":400}").messages()).containsExactly("m");
        assertThat(read("{\"error\":\"E\"}").messages()).containsExactly("e");
        assertThat(read("\"S\"").messages()).containsExactly("s");
    }

    @Test
    void fieldsOutsideTheKnownShapesAreNotRead() {
        ErrorBody body = read("{\"error\":{\"message\":\"m\",\"param\":\"prompt is too long\","
                + "\"metadata\":{\"raw\":\"content_policy_violation\"}}}");

        assertThat(body.messages()).containsExactly("m");
        assertThat(body.codes()).isEmpty();
    }

    @Test
    void textThatIsNotJsonIsOneMessage() {
        assertThat(read("<html><body>Bad Gateway</body></html>").messages())
                .containsExactly("<html><body>bad gateway</body></html>");
        assertThat(read("{\"error\":{\"message\":\"cut").messages()).containsExactly("{\"error\":{\"message\":\"cut");
    }

    @Test
    void emptyBodySaysNothing() {
        ErrorBody body = read("");

        assertThat(body.codes()).isEmpty();
        assertThat(body.messages()).isEmpty();
    }

    private static ErrorBody read(String text) {
        return ErrorBody.read(Buffer.buffer(text));
    }
}
