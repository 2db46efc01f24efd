package dev.sluice.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;

/** Reading a gateway's answers off a raw socket, for tests that hold connections by hand. */
public final class RawAnswers {
    private RawAnswers() {}

    /** True when the peer ends the connection (an end of stream or a reset) before the socket's read timeout. */
    public static boolean closedByPeer(Socket socket) throws IOException {
        try {
            InputStream in = socket.getInputStream();
            while (in.read() >= 0) {
                // whatever was still on its way
            }
            return true;
        } catch (SocketException reset) {
            return true;
        }
    }

    /** One answer: its head and a Content-Length body; what arrived when the peer closed first. */
    public static String read(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                return head.toString(StandardCharsets.ISO_8859_1);
            }
            head.write(b);
        }
        String text = head.toString(StandardCharsets.ISO_8859_1);
        int length = 0;
        for (String line : text.split("\r\n")) {
            if (line.toLowerCase().startsWith("content-length:")) {
                length = Integer.parseInt(line.substring(15).trim());
            }
        }
        return text + new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }

    /** The body of an answer {@link #read} returned. */
    public static String body(String answer) {
        int at = answer.indexOf("\r\n\r\n");
        return at < 0 ? "" : answer.substring(at + 4);
    }
}
