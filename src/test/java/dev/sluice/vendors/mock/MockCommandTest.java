package dev.sluice.vendors.mock;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class MockCommandTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final UpstreamClient client = new UpstreamClient();

    @Test
    void aBadFlagPrintsOneLineAndTheUsageAndReturns2() {
        int status = run(new String[] {"--port", "many"}, upstream -> { });

        assertThat(status).isEqualTo(2);
        assertThat(text(err).lines().findFirst())
                .hasValue("sluice mock: --port: 'many' (expected: an integer 0..65535)");
        assertThat(text(err)).contains("usage: sluice mock");
        assertThat(text(out)).isEmpty();
    }

    @Test
    void anUnknownFlagReturns2() {
        assertThat(run(new String[] {"--verbose", "yes"}, upstream -> { })).isEqualTo(2);
        assertThat(text(err)).startsWith("sluice mock: unknown flag --verbose\n");
    }

    @Test
    void helpPrintsTheUsageAndReturns0() {
        assertThat(run(new String[] {"--help"}, upstream -> { })).isZero();
        assertThat(text(out)).startsWith("usage: sluice mock");
        assertThat(text(err)).isEmpty();
    }

    @Test
    void aTakenPortReturns1() {
        try (MockUpstream taken = MockUpstream.start(MockOptions.defaults("taken", MockMode.OK))) {
            int status = run(new String[] {"--port", Integer.toString(taken.port())}, upstream -> { });

            assertThat(status).isEqualTo(1);
            assertThat(text(err)).startsWith("sluice mock: mock 'mock' could not listen on 127.0.0.1:" + taken.port());
        }
    }

    @Test
    void servesUntilStoppedThenReturns0() throws Exception {
        CompletableFuture<MockUpstream> serving = new CompletableFuture<>();
        CountDownLatch stop = new CountDownLatch(1);
        CompletableFuture<Integer> status = CompletableFuture.supplyAsync(() -> run(
                new String[] {"--port", "0", "--name", "primary", "--mode", "fail", "--times", "1"},
                upstream -> {
                    serving.complete(upstream);
                    stop.await();
                }));

        MockUpstream upstream = serving.get(10, TimeUnit.SECONDS);
        assertThat(client.chat(upstream, "hi").statusCode()).isEqualTo(500);
        assertThat(client.chat(upstream, "hi").statusCode()).isEqualTo(200);
        stop.countDown();

        assertThat(status.get(10, TimeUnit.SECONDS)).isZero();
        assertThat(text(out)).isEqualTo("mock primary listening on " + upstream.baseUrl()
                + " in mode fail for the first 1 calls, then ok\n");
        assertThat(text(err)).isEmpty();
        // The command closed its mock on the way out.
        assertThat(nothingListensOn(upstream.port())).isTrue();
    }

    private int run(String[] args, MockCommand.Lifetime lifetime) {
        return MockCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), lifetime);
    }

    private static String text(ByteArrayOutputStream stream) {
        return stream.toString(StandardCharsets.UTF_8);
    }

    private static boolean nothingListensOn(int port) {
        try {
            new Socket("127.0.0.1", port).close();
            return false;
        } catch (IOException refused) {
            return true;
        }
    }
}
