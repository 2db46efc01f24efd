package dev.sluice.vendors.mock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.testing.Eventually;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.net.ConnectException;
import java.net.Socket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class MockUpstreamLifecycleTest {

    @RegisterExtension
    final MockUpstreams mocks = new MockUpstreams();
    private final UpstreamClient client = new UpstreamClient();

    @Test
    void portZeroPicksAFreePortAndBaseUrlPointsAtV1() {
        MockUpstream mock = mocks.start("primary", MockMode.OK);

        assertThat(mock.port()).isPositive();
        assertThat(mock.baseUrl()).isEqualTo("http://127.0.0.1:" + mock.port() + "/v1");
        assertThat(mock.name()).isEqualTo("primary");
        assertThat(mock).hasToString("MockUpstream[primary ok " + mock.baseUrl() + "]");
    }

    @Test
    void aTakenPortFailsClearly() {
        MockUpstream first = mocks.start("primary", MockMode.OK);
        MockOptions clash = MockOptions.defaults("backup", MockMode.OK).withPort(first.port());

        assertThatThrownBy(() -> MockUpstream.start(clash))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("mock 'backup' could not listen on 127.0.0.1:" + first.port() + ": ");
    }

    @Test
    void closeStopsListeningAndCanBeRepeated() throws IOException {
        MockUpstream mock = MockUpstream.start(MockOptions.defaults("primary", MockMode.HANG));
        int port = mock.port();
        try (RawConnection hanging = RawConnection.open(mock)) {
            hanging.post("/v1/chat/completions", UpstreamClient.chatBody("m", "hi", false));
            Eventually.equal("requests", mock::requests, 1);

            mock.close();
            mock.close();

            assertThat(hanging.readToEnd()).isEmpty();
        }
        assertThatThrownBy(() -> new Socket("127.0.0.1", port).close()).isInstanceOf(ConnectException.class);
    }

    @Test
    void mocksShareACallersVertxAndLeaveItOpen() {
        Vertx vertx = Vertx.vertx();
        try {
            MockUpstream primary = MockUpstream.start(vertx, MockOptions.defaults("primary", MockMode.OK));
            MockUpstream backup = MockUpstream.start(vertx, MockOptions.defaults("backup", MockMode.FAIL));

            assertThat(client.chat(primary, "hi").body()).contains("[primary]");
            assertThat(client.chat(backup, "hi").statusCode()).isEqualTo(500);
            primary.close();
            backup.close();

            MockUpstream again = MockUpstream.start(vertx, MockOptions.defaults("again", MockMode.OK));
            assertThat(client.chat(again, "hi").statusCode()).isEqualTo(200);
            again.close();
        } finally {
            vertx.close().await();
        }
    }

    @Test
    void startAsyncCompletesOnceListening() throws Exception {
        Vertx vertx = Vertx.vertx();
        try {
            MockUpstream mock = MockUpstream.startAsync(vertx, MockOptions.defaults("async", MockMode.OK))
                    .toCompletionStage().toCompletableFuture().get();

            assertThat(client.chat(mock, "hi").statusCode()).isEqualTo(200);
            mock.closeAsync().toCompletionStage().toCompletableFuture().get();
        } finally {
            vertx.close().await();
        }
    }
}
