package dev.sluice.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Clients from many addresses of the loopback network (127.0.0.0/8 is all this machine's), so
 * a test can be thousands of connections from many clients, as the gateway's per-address
 * bound sees them, without leaving the machine.
 */
public final class LoopbackClients {
    private LoopbackClients() {}

    /** The {@code index}-th client address: 127.0.1.2, 127.0.1.3, … 127.0.1.201, 127.0.2.2, … */
    public static InetAddress address(int index) {
        try {
            return InetAddress.getByName("127.0." + (1 + index / 200) + "." + (2 + index % 200));
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Opens {@code count} connections to {@code port}, {@code perAddress} from each address, sending nothing. */
    public static List<Socket> idle(int port, int count, int perAddress) throws IOException {
        List<Socket> sockets = new ArrayList<>(count);
        try {
            for (int i = 0; i < count; i++) {
                Socket socket = new Socket();
                sockets.add(socket);
                socket.bind(new InetSocketAddress(address(i / perAddress), 0));
                socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            }
        } catch (IOException e) {
            closeAll(sockets);
            throw e;
        }
        return sockets;
    }

    /** An HTTP/1.1 client whose connections come from the {@code index}-th address. */
    public static HttpClient http(int index) {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).localAddress(address(index))
                .connectTimeout(Duration.ofSeconds(10)).build();
    }

    public static void closeAll(List<Socket> sockets) {
        for (Socket socket : sockets) {
            try {
                socket.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
    }
}
