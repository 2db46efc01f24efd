package dev.sluice.testing;

import java.io.IOException;
import java.io.InputStream;

/** Reading one HTTP/1.1 request off a raw socket, for test upstreams that answer by hand. */
public final class RawRequests {
    private RawRequests() {}

    /** Reads the head and a {@code Content-Length} body; false when the peer closed before a whole head. */
    public static boolean read(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                return false;
            }
            head.append((char) b);
        }
        int length = 0;
        for (String line : head.toString().split("\r\n")) {
            if (line.toLowerCase().startsWith("content-length:")) {
                length = Integer.parseInt(line.substring(15).trim());
            }
        }
        in.readNBytes(length);
        return true;
    }
}
