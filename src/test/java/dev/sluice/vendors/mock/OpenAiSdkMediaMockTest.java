package dev.sluice.vendors.mock;

import static org.assertj.core.api.Assertions.assertThat;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.http.HttpResponse;
import com.openai.models.audio.AudioModel;
import com.openai.models.audio.AudioResponseFormat;
import com.openai.models.audio.speech.SpeechCreateParams;
import com.openai.models.audio.transcriptions.Transcription;
import com.openai.models.audio.transcriptions.TranscriptionCreateParams;
import com.openai.models.audio.transcriptions.TranscriptionVerbose;
import com.openai.models.audio.translations.TranslationCreateParams;
import com.openai.models.images.Image;
import com.openai.models.images.ImageGenerateParams;
import com.openai.models.images.ImagesResponse;
import com.openai.models.moderations.Moderation;
import com.openai.models.moderations.ModerationCreateParams;
import com.openai.models.moderations.ModerationCreateResponse;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * OpenAI's own Java SDK against the mock's images, speech, transcriptions, translations and
 * moderations. The SDK parses strictly and writes its own multipart forms, so this shows the
 * mock reads and answers these calls as OpenAI's API reference has them.
 */
class OpenAiSdkMediaMockTest {

    private MockUpstream mock;
    private OpenAIClient client;

    @TempDir
    Path dir;

    @BeforeEach
    void start() {
        mock = MockUpstream.start(MockOptions.defaults("media", MockMode.OK));
        client = OpenAIOkHttpClient.builder().baseUrl(mock.baseUrl()).apiKey("k").maxRetries(0).build();
    }

    @AfterEach
    void stop() {
        client.close();
        mock.close();
    }

    private Path audio(int bytes) throws IOException {
        Path file = dir.resolve("hello.wav");
        Files.write(file, new byte[bytes]);
        return file;
    }

    @Test
    void imagesAreUrlsWithTheRevisedPrompt() {
        ImagesResponse images = client.images().generate(ImageGenerateParams.builder().model("dall-e-3").prompt("a red kite")
                .n(2).size(ImageGenerateParams.Size._1024X1024).build());

        List<Image> data = images.data().orElseThrow();
        assertThat(data).hasSize(2);
        assertThat(data.getFirst().url()).hasValueSatisfying(url -> assertThat(url).startsWith("https://mock.invalid/media/images/"));
        assertThat(data.getFirst().revisedPrompt()).contains("a red kite");
        assertThat(images.created()).isPositive();
    }

    @Test
    void imagesAskedAsBase64AreBase64() {
        ImagesResponse images = client.images().generate(ImageGenerateParams.builder().model("dall-e-2").prompt("a kite")
                .responseFormat(ImageGenerateParams.ResponseFormat.B64_JSON).build());

        assertThat(images.data().orElseThrow().getFirst().b64Json()).hasValueSatisfying(b64 -> assertThat(b64).startsWith("iVBOR"));
    }

    @Test
    void speechIsAudioOfTheAskedFormat() throws IOException {
        try (HttpResponse speech = client.audio().speech().create(SpeechCreateParams.builder().model("tts-1").input("hello there")
                .voice(SpeechCreateParams.Voice.ofString("alloy")).responseFormat(SpeechCreateParams.ResponseFormat.WAV).build());
                InputStream body = speech.body()) {
            assertThat(speech.statusCode()).isEqualTo(200);
            assertThat(speech.headers().values("Content-Type")).containsExactly("audio/wav");
            assertThat(new String(body.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("ID3hello there");
        }
    }

    @Test
    void aTranscriptionNamesTheFileItHeard() throws IOException {
        Transcription transcription = client.audio().transcriptions().create(TranscriptionCreateParams.builder()
                .file(audio(64_000)).model(AudioModel.WHISPER_1).build()).asTranscription();

        assertThat(transcription.text()).isEqualTo("[media] heard 64000 bytes of hello.wav");
        assertThat(mock.receivedBodies().getLast().path("model").asText()).isEqualTo("whisper-1");
    }

    @Test
    void aVerboseTranscriptionSaysHowLongTheAudioWas() throws IOException {
        TranscriptionVerbose verbose = client.audio().transcriptions().create(TranscriptionCreateParams.builder()
                .file(audio(64_000)).model(AudioModel.WHISPER_1).responseFormat(AudioResponseFormat.VERBOSE_JSON)
                .language("en").build()).asVerbose();

        assertThat(verbose.duration()).isEqualTo(2.0);
        assertThat(verbose.language()).isEqualTo("en");
        assertThat(verbose.segments()).hasValueSatisfying(segments -> assertThat(segments).hasSize(1));
    }

    @Test
    void aTranslationIsHeardLikeATranscription() throws IOException {
        String text = client.audio().translations().create(TranslationCreateParams.builder()
                .file(audio(100)).model(AudioModel.WHISPER_1).build()).asTranslation().text();

        assertThat(text).isEqualTo("[media] heard 100 bytes of hello.wav");
    }

    @Test
    void aModerationFlagsTheTriggerWordOnly() {
        ModerationCreateResponse moderation = client.moderations().create(ModerationCreateParams.builder()
                .inputOfStrings(List.of("a calm day", "FORBIDDEN by the trigger")).model("omni-moderation-latest").build());

        assertThat(moderation.model()).isEqualTo("omni-moderation-latest");
        List<Moderation> results = moderation.results();
        assertThat(results).extracting(Moderation::flagged).containsExactly(false, true);
        assertThat(results.get(1).categories().violence()).isTrue();
        assertThat(results.get(0).categoryScores().violence()).isLessThan(0.01);
    }
}
