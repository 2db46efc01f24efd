package dev.sluice.edge;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpRequest;
import io.vertx.core.http.HttpServerOptions;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The strict decoder on its own, fed bytes in the pieces a network may cut them into, on Netty's test clock. */
class StrictRequestDecoderTest {
    private final StrictRequestDecoder decoder = new StrictRequestDecoder(new HttpServerOptions(), Duration.ofSeconds(2),
            Duration.ofSeconds(3));
    private final EmbeddedChannel channel = new EmbeddedChannel();

    StrictRequestDecoderTest() {
        channel.freezeTime();
        channel.pipeline().addLast(decoder);
        decoder.timeHead(channel.pipeline().context(decoder));
    }

    private void send(String... pieces) {
        for (String piece : pieces) {
            channel.writeInbound(Unpooled.copiedBuffer(piece, StandardCharsets.ISO_8859_1));
        }
    }

    private List<HttpRequest> requests() {
        List<HttpRequest> requests = new ArrayList<>();
        for (Object read = channel.readInbound(); read != null; read = channel.readInbound()) {
            if (read instanceof HttpRequest request) {
                requests.add(request);
            }
            if (read instanceof HttpContent content && !(read instanceof HttpRequest)) {
                content.release();
            }
        }
        return requests;
    }

    @Test
    void aFoldCutFromTheLineBeforeItIsStillFound() {
        send("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nX-Note: one\r\n", " two\r\nContent-Length: 0\r\n\r\n");

        List<HttpRequest> requests = requests();
        assertThat(requests).hasSize(1);
        assertThat(requests.get(0).decoderResult().cause()).isInstanceOf(RequestFramingException.class);
    }

    @Test
    void bodiesAndLaterHeadsAreNotMistakenForFolds() {
        String body = "{\n \"model\": \"m\"\n\t}";
        send("POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: " + body.length() + "\r\n\r\n", body,
                "  \r\nGET /b HTTP/1.1\r\nHost: x\r\n\r\n");

        List<HttpRequest> requests = requests();
        assertThat(requests).extracting(HttpRequest::uri).containsExactly("/a", "/b");
        assertThat(requests).allMatch(request -> request.decoderResult().isSuccess());
    }

    @Test
    void aHeadNotWholeWithinTheTimeoutIsHandedOnAsTimedOut() {
        send("GET /v1/models HTTP/1.1\r\nHost: x\r\n");
        channel.advanceTimeBy(1999, TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();
        assertThat(requests()).isEmpty();

        channel.advanceTimeBy(1, TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();

        List<HttpRequest> requests = requests();
        assertThat(requests).hasSize(1);
        assertThat(requests.get(0).decoderResult().cause()).isInstanceOf(RequestHeadTimeoutException.class);
        send("X-More: late\r\n\r\n");
        assertThat(requests()).isEmpty(); // what follows a refusal is dropped
    }

    @Test
    void theClockStopsAtAWholeHeadAndStartsAgainAtTheNextHeadsFirstByte() {
        send("GET /a HTTP/1.1\r\nHost: x\r\n\r\n");
        channel.advanceTimeBy(10, TimeUnit.SECONDS); // an idle kept-alive connection is the idle timeout's
        channel.runScheduledPendingTasks();
        assertThat(requests()).extracting(HttpRequest::uri).containsExactly("/a");

        send("GET /b HTTP/1.1\r\n");
        channel.advanceTimeBy(1999, TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();
        send("Host: x\r\n\r\n");

        List<HttpRequest> requests = requests();
        assertThat(requests).extracting(HttpRequest::uri).containsExactly("/b");
        assertThat(requests.get(0).decoderResult().isSuccess()).isTrue();
    }
}
