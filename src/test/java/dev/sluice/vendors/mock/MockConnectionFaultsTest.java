package dev.sluice.vendors.mock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.testing.Eventually;
import java.io.UncheckedIOException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class MockConnectionFaultsTest {

    private static final String CHAT = "/v1/chat/completions";

    @RegisterExtension
    final MockUpstreams mocks = new MockUpstreams();
    private final UpstreamClient client = new UpstreamClient();

    @Test
    void cutStreamSendsTwoChunksThenDropsTheConnection() {
        MockUpstream mock = mocks.start("primary", MockMode.CUT);

        try (RawConnection connection = RawConnection.open(mock)) {
            connection.post(CHAT, UpstreamClient.chatBody("m", "where is my parcel", true));
            String received = connection.readToEnd();

            assertThat(connection.ended()).isTrue();
            assertThat(received).startsWith("HTTP/1.1 200").contains("text/event-stream");
            assertThat(received.split("data: ", -1)).hasSize(3);
            assertThat(received).contains("\"role\":\"assistant\"").contains("\"content\":\" you\"");
            assertThat(received).doesNotContain("[DONE]").doesNotContain("\"finish_reason\":\"stop\"");
            assertThat(received).doesNotEndWith("0\r\n\r\n");
        }
        assertThat(mock.cancelledStreams()).isZero();
        Eventually.equal("open connections", mock::openConnections, 0);
    }

    @Test
    void cutNonStreamDropsTheConnectionWithoutAnyResponse() {
        MockUpstream mock = mocks.start("primary", MockMode.CUT);

        try (RawConnection connection = RawConnection.open(mock)) {
            connection.post(CHAT, UpstreamClient.chatBody("m", "hi", false));

            assertThat(connection.readToEnd()).isEmpty();
            assertThat(connection.ended()).isTrue();
        }
        assertThatThrownBy(() -> client.chat(mock, "hi")).isInstanceOf(UncheckedIOException.class);
        assertThat(mock.requests()).isEqualTo(2);
        assertThat(mock.cancelledStreams()).isZero();
    }

    @Test
    void cutWithTimesDropsOnceThenStreamsToTheEnd() {
        MockUpstream mock = mocks.start(MockOptions.defaults("primary", MockMode.CUT).withTimes(1));

        try (RawConnection connection = RawConnection.open(mock)) {
            connection.post(CHAT, UpstreamClient.chatBody("m", "hi", true));
            assertThat(connection.readToEnd()).doesNotContain("[DONE]");
        }

        assertThat(client.post(mock, CHAT, UpstreamClient.chatBody("m", "hi", true)).body()).endsWith("data: [DONE]\n\n");
    }

    @Test
    void hangNeverAnswersAndCountsTheClientHangingUp() {
        MockUpstream mock = mocks.start("primary", MockMode.HANG);

        try (RawConnection connection = RawConnection.open(mock)) {
            connection.post(CHAT, UpstreamClient.chatBody("m", "hi", false));
            Eventually.equal("requests", mock::requests, 1);
            assertThat(mock.cancelledStreams()).isZero();
        }

        Eventually.equal("cancelled", mock::cancelledStreams, 1);
        Eventually.equal("open connections", mock::openConnections, 0);
    }

    @Test
    void aClientClosingMidStreamIsCountedAsCancelled() {
        MockUpstream mock = mocks.start(MockOptions.defaults("slow", MockMode.SLOW).withDelay(Duration.ofMillis(100)));

        try (RawConnection connection = RawConnection.open(mock)) {
            connection.post(CHAT, UpstreamClient.chatBody("m", "a reply long enough to outlast the client", true));
            assertThat(connection.readUntil("data: ")).doesNotContain("[DONE]");
        }

        Eventually.equal("cancelled", mock::cancelledStreams, 1);
    }

    @Test
    void aClientGivingUpOnASlowAnswerIsCountedAsCancelled() {
        MockUpstream mock = mocks.start(MockOptions.defaults("slow", MockMode.SLOW).withDelay(Duration.ofSeconds(30)));

        try (RawConnection connection = RawConnection.open(mock)) {
            connection.post(CHAT, UpstreamClient.chatBody("m", "hi", false));
            Eventually.equal("requests", mock::requests, 1);
        }

        Eventually.equal("cancelled", mock::cancelledStreams, 1);
    }

    @Test
    void aStreamReadToTheEndIsNotCancelled() {
        MockUpstream mock = mocks.start(MockOptions.defaults("slow", MockMode.SLOW).withDelay(Duration.ofMillis(50)));

        try (RawConnection connection = RawConnection.open(mock)) {
            connection.post(CHAT, UpstreamClient.chatBody("m", "hi", true));
            connection.readUntil("data: [DONE]");
        }

        Eventually.equal("open connections", mock::openConnections, 0);
        assertThat(mock.cancelledStreams()).isZero();
    }

    @Test
    void openConnectionsCountsSocketsUntilTheyClose() {
        MockUpstream mock = mocks.start("primary", MockMode.OK);

        RawConnection first = RawConnection.open(mock);
        RawConnection second = RawConnection.open(mock);
        try {
            Eventually.equal("open connections", mock::openConnections, 2);
        } finally {
            first.close();
            second.close();
        }

        Eventually.equal("open connections", mock::openConnections, 0);
    }

    @Test
    void resetZeroesTheCancelledCount() {
        MockUpstream mock = mocks.start("primary", MockMode.HANG);
        try (RawConnection connection = RawConnection.open(mock)) {
            connection.post(CHAT, UpstreamClient.chatBody("m", "hi", false));
            Eventually.equal("requests", mock::requests, 1);
        }
        Eventually.equal("cancelled", mock::cancelledStreams, 1);

        mock.reset();

        assertThat(mock.cancelledStreams()).isZero();
        assertThat(mock.requests()).isZero();
    }
}
