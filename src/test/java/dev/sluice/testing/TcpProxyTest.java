package dev.sluice.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import org.junit.jupiter.api.Test;

/** The test proxy itself: it forwards, cuts every connection on stop, and listens again on the same port. */
class TcpProxyTest {

    @Test
    void forwardsThenCutsOpenConnectionsAndRefusesNewOnesUntilResumedOnTheSamePort() throws IOException {
        try (ServerSocket echo = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
                TcpProxy proxy = TcpProxy.to(new InetSocketAddress(InetAddress.getLoopbackAddress(), echo.getLocalPort()))) {
            Thread.ofVirtual().start(() -> echoEach(echo));
            InetSocketAddress through = new InetSocketAddress(InetAddress.getLoopbackAddress(), proxy.port());

            try (Socket open = new Socket()) {
                open.connect(through, 2_000);
                assertThat(roundTrip(open, 'a')).isEqualTo('a');

                proxy.stop();
                open.getOutputStream().write('b');
                assertThat(open.getInputStream().read()).isEqualTo(-1);
            }
            assertThatThrownBy(() -> new Socket().connect(through, 2_000)).isInstanceOf(ConnectException.class);

            proxy.resume();
            try (Socket again = new Socket()) {
                again.connect(through, 2_000);
                assertThat(roundTrip(again, 'c')).isEqualTo('c');
            }
            assertThat(proxy.accepted()).isEqualTo(2);
        }
    }

    private static int roundTrip(Socket socket, char sent) throws IOException {
        socket.setSoTimeout(5_000);
        socket.getOutputStream().write(sent);
        socket.getOutputStream().flush();
        return socket.getInputStream().read();
    }

    private static void echoEach(ServerSocket server) {
        while (true) {
            try {
                Socket connection = server.accept();
                Thread.ofVirtual().start(() -> {
                    try (connection; InputStream in = connection.getInputStream(); OutputStream out = connection.getOutputStream()) {
                        in.transferTo(out);
                    } catch (IOException ignored) {
                        // the proxy cut it
                    }
                });
            } catch (IOException closed) {
                return;
            }
        }
    }
}
