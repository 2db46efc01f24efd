package dev.sluice.vendors.mock;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

class MockStreamEventsTest {

    private final Clock fixed = Clock.fixed(Instant.ofEpochSecond(1_700_000_000L), ZoneOffset.UTC);
    private final MockStreamEvents events = new MockStreamEvents(new MockReplies("edge", fixed));

    @Test
    void wordsKeepTheirLeadingSpacesSoTheyJoinBackExactly() {
        assertThat(MockStreamEvents.words("[a] you said: x  y")).containsExactly("[a]", " you", " said:", " x", "  y");
        assertThat(MockStreamEvents.words("solo")).containsExactly("solo");
        assertThat(MockStreamEvents.words(" lead")).containsExactly(" lead");
    }

    @Test
    void everyChunkCarriesTheClocksTimeAndOneId() {
        MockCall call = MockCall.of(MockRoute.match(HttpMethod.POST, "/v1/chat/completions"),
                UpstreamClient.json("{\"model\":\"m\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}"));

        List<Buffer> stream = events.of(call); // "[edge]" " you" " said:" " hi", stop, [DONE]

        assertThat(stream).hasSize(6).endsWith(MockStreamEvents.DONE);
        List<JsonNode> chunks = stream.subList(0, 5).stream()
                .map(event -> UpstreamClient.json(event.toString().substring("data: ".length()).trim()))
                .toList();
        assertThat(chunks).allSatisfy(chunk -> {
            assertThat(chunk.path("created").asLong()).isEqualTo(1_700_000_000L);
            assertThat(chunk.path("id").asText()).isEqualTo("chatcmpl-mock-1");
        });
    }

    @Test
    void echoStopsAfterFortyCharactersWithoutSplittingASurrogatePair() {
        MockReplies replies = new MockReplies("edge", fixed);
        String emoji = "😀".repeat(45);
        MockCall call = MockCall.of(MockRoute.match(HttpMethod.POST, "/v1/completions"),
                UpstreamClient.json("{\"prompt\":" + UpstreamClient.quote(emoji) + "}"));

        assertThat(replies.replyText(call)).isEqualTo("[edge] you said: " + "😀".repeat(40));
    }

    @Test
    void halvesSplitBetweenCodePoints() {
        assertThat(MockStreamEvents.halves("abcd")).containsExactly("ab", "cd");
        assertThat(MockStreamEvents.halves("a😀b")).containsExactly("a", "😀b");
        assertThat(MockStreamEvents.halves("😀😀😀")).containsExactly("😀", "😀😀");
    }
}
