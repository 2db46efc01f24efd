package dev.sluice.vendors.openai.entry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.model.FormBody;
import dev.sluice.wire.ApiError;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Reading a multipart form, and writing it again with one field replaced. */
class MultipartFormsTest {
    private static final String PATH = "/v1/audio/transcriptions";

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void readsFieldsAndFilesAndWritesThemBackWithAFieldReplaced() {
        String body = "--b1\r\nContent-Disposition: form-data; name=\"model\"\r\n\r\nwhisper\r\n"
                + "--b1\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.wav\"\r\nContent-Type: audio/wav\r\n\r\n"
                + "RIFF\r\n--not-the-boundary\r\n"
                + "--b1--\r\n";

        FormBody form = MultipartForms.parse(bytes(body), "multipart/form-data; boundary=b1", PATH);

        assertThat(form.parts()).extracting(FormBody.Part::name).containsExactly("model", "file");
        assertThat(form.part("model").orElseThrow().text()).isEqualTo("whisper");
        assertThat(form.part("file").orElseThrow().filename()).contains("a.wav");
        assertThat(form.part("file").orElseThrow().text()).isEqualTo("RIFF\r\n--not-the-boundary");
        assertThat(new String(form.withField("model", "whisper-1"), StandardCharsets.UTF_8))
                .isEqualTo(body.replace("\r\n\r\nwhisper\r\n", "\r\n\r\nwhisper-1\r\n"));
        assertThat(form.contentType()).isEqualTo("multipart/form-data; boundary=b1");
    }

    @Test
    void readsAQuotedBoundaryAndSkipsAPreamble() {
        String body = "preamble\r\n--b 2\r\nContent-Disposition: form-data; name=\"model\"\r\n\r\nm\r\n--b 2--";

        FormBody form = MultipartForms.parse(bytes(body), "Multipart/Form-Data; boundary=\"b 2\"; charset=utf-8", PATH);

        assertThat(form.part("model").orElseThrow().text()).isEqualTo("m");
    }

    @Test
    void refusesWhatIsNotAWellFramedForm() {
        assertRefused("{}", "application/json",
                "Content-Type must be multipart/form-data for /v1/audio/transcriptions, but got 'application/json'.");
        assertRefused("", null, "Content-Type must be multipart/form-data for /v1/audio/transcriptions, but got none.");
        assertRefused("--b\r\n", "multipart/form-data", "Malformed multipart/form-data body: its Content-Type names no boundary.");
        assertRefused("nothing here", "multipart/form-data; boundary=b", "Malformed multipart/form-data body: it holds no part.");
        assertRefused("--b\r\nX-Other: 1\r\n\r\nv\r\n--b--", "multipart/form-data; boundary=b",
                "Malformed multipart/form-data body: a part has no Content-Disposition.");
        assertRefused("--b\r\nContent-Disposition: form-data; name=\"m\"", "multipart/form-data; boundary=b",
                "Malformed multipart/form-data body: a part's headers do not end.");
        assertRefused("--bX", "multipart/form-data; boundary=b",
                "Malformed multipart/form-data body: a boundary is not followed by a line break.");
    }

    private static void assertRefused(String body, String contentType, String message) {
        assertThatThrownBy(() -> MultipartForms.parse(bytes(body), contentType, PATH))
                .isInstanceOfSatisfying(ApiError.class, e -> {
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.getMessage()).isEqualTo(message);
                });
    }
}
