package dev.sluice.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A real HTTP/1.1 upstream on a free loopback port that answers each request by a script:
 * the scripted replies in order, then its {@link #always} reply (by default a chat completion
 * saying {@code [name] ok}) for every call after them. A reply is a status, headers and a
 * body, or a stream of events with pauses between them, or one of the ways upstreams fail
 * (an error body that never ends, a stream cut or stalled after half an event, a hang).
 *
 * <p>Everything a test asks is counted server-side: calls, answers still open, answers whose
 * caller hung up before their end, bytes sent. Each connection is served on its own virtual
 * thread, keep-alive included, so several answers can be open at once.
 */
public final class ScriptedUpstream implements AutoCloseable {
    private static final byte[] PADDING = filled(64 * 1024);

    private final ServerSocket server;
    private final String name;
    private final Queue<Reply> script = new ConcurrentLinkedQueue<>();
    private final Reply always;
    private final Set<Socket> connections = ConcurrentHashMap.newKeySet();
    private final AtomicInteger calls = new AtomicInteger();
    private final AtomicInteger open = new AtomicInteger();
    private final AtomicInteger closedByCaller = new AtomicInteger();
    private final AtomicLong bytesSent = new AtomicLong();

    /** How a reply ends once its chunks are out. */
    public enum End {
        /** Complete: a whole body with its length, or a stream's last chunk. */
        COMPLETE,
        /** The connection is reset: a stream cut before its end. */
        CUT,
        /** Nothing more is sent; the connection is held until the caller closes it. */
        STALL,
        /** The body goes on with padding, chunk after chunk, until the caller closes the connection. */
        ENDLESS,
        /** The body has neither a length nor chunks: it ends where the upstream closes the connection, cleanly. */
        CLOSE
    }

    /** A piece of a reply's body, sent after {@code pause}. */
    public record Chunk(Duration pause, String data) {
        public static Chunk now(String data) {
            return new Chunk(Duration.ZERO, data);
        }
    }

    /**
     * One scripted answer: {@code status} and {@code headers} (none sent at all when
     * {@code status} is 0, a hang), then {@code chunks}, then its {@code end}. A reply
     * whose chunks are one, with no pause, ending {@code COMPLETE}, goes with a
     * {@code Content-Length}; any other is sent chunked.
     */
    public record Reply(int status, Map<String, String> headers, List<Chunk> chunks, End end) {
        public Reply {
            headers = Map.copyOf(headers);
            chunks = List.copyOf(chunks);
        }

        /** A JSON answer; {@code retryAfter} null sends no such header. */
        public Reply(int status, String body, String retryAfter) {
            this(status, body, retryAfter, "application/json");
        }

        public Reply(int status, String body, String retryAfter, String contentType) {
            this(status, headers(contentType, retryAfter), List.of(Chunk.now(body)), End.COMPLETE);
        }

        /** A whole body of any type ({@code contentType} null sends none), with extra header name/value pairs. */
        public static Reply body(int status, String contentType, String body, String... headerPairs) {
            Map<String, String> headers = headers(contentType, null);
            for (int i = 0; i < headerPairs.length; i += 2) {
                headers.put(headerPairs[i], headerPairs[i + 1]);
            }
            return new Reply(status, headers, List.of(Chunk.now(body)), End.COMPLETE);
        }

        /** An OpenAI-shaped error of {@code status}. */
        public static Reply status(int status) {
            return new Reply(status, "{\"error\":{\"message\":\"scripted " + status
                    + "\",\"type\":\"server_error\",\"param\":null,\"code\":null}}", null);
        }

        /** A chat completion whose message is {@code content}. */
        public static Reply completion(String content) {
            return new Reply(200, """
                    {"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"%s"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}"""
                    .formatted(content), null);
        }

        /** A 200 event stream that ends at once, without a single event. */
        public static Reply emptyStream() {
            return new Reply(200, headers("text/event-stream", null), List.of(Chunk.now("")), End.COMPLETE);
        }

        /** A 200 event stream of {@code chunks} (each an event or a pause before one), then {@code end}. */
        public static Reply stream(End end, Chunk... chunks) {
            return new Reply(200, headers("text/event-stream", null), Arrays.asList(chunks), end);
        }

        /**
         * A stream held open: a first delta {@code [name] first} at once, then after {@code hold}
         * a last delta and {@code [DONE]}.
         */
        public static Reply heldStream(String name, Duration hold) {
            return stream(End.COMPLETE, Chunk.now(delta("[" + name + "] first")),
                    new Chunk(hold, delta(" last") + "data: [DONE]\n\n"));
        }

        /** A 200 event stream that sends half an event, then is cut (or, when {@code stall}, sends nothing more). */
        public static Reply halfEvent(boolean stall) {
            return stream(stall ? End.STALL : End.CUT, Chunk.now("data: {\"id\":"));
        }

        /** A 500 whose JSON error message starts {@code "boom"} and then never ends. */
        public static Reply endlessError() {
            return new Reply(500, headers("application/json", null),
                    List.of(Chunk.now("{\"error\":{\"type\":\"server_error\",\"message\":\"boom ")), End.ENDLESS);
        }

        /** No answer at all: the request is read and the connection held until the caller closes it. */
        public static Reply hang() {
            return new Reply(0, Map.of(), List.of(), End.STALL);
        }

        /** One chat completion chunk event whose delta is {@code content}. */
        public static String delta(String content) {
            return "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,"
                    + "\"delta\":{\"content\":\"" + content + "\"},\"finish_reason\":null}]}\n\n";
        }

        private static Map<String, String> headers(String contentType, String retryAfter) {
            Map<String, String> headers = new LinkedHashMap<>();
            if (contentType != null) {
                headers.put("Content-Type", contentType);
            }
            if (retryAfter != null) {
                headers.put("Retry-After", retryAfter);
            }
            return headers;
        }

        private boolean whole() {
            return end == End.COMPLETE && chunks.size() == 1 && chunks.getFirst().pause().isZero();
        }
    }

    private ScriptedUpstream(String name, Reply always) {
        this.name = name;
        this.always = always;
        try {
            server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Thread.ofVirtual().name("scripted-upstream-" + name).start(this::accept);
    }

    /** Answers {@code replies} in order, then {@code [name] ok} to every later call. */
    public static ScriptedUpstream start(String name, Reply... replies) {
        ScriptedUpstream upstream = new ScriptedUpstream(name, Reply.completion("[" + name + "] ok"));
        upstream.script.addAll(List.of(replies));
        return upstream;
    }

    /** Answers every call with {@code reply}. */
    public static ScriptedUpstream always(String name, Reply reply) {
        return new ScriptedUpstream(name, reply);
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + server.getLocalPort() + "/v1";
    }

    public int port() {
        return server.getLocalPort();
    }

    /** Requests received. */
    public int calls() {
        return calls.get();
    }

    /** Answers begun and not yet over: streams held open, stalls, hangs. */
    public int open() {
        return open.get();
    }

    /** Answers whose caller closed the connection before their end. */
    public int closedByCaller() {
        return closedByCaller.get();
    }

    public long bytesSent() {
        return bytesSent.get();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                connections.add(socket);
                Thread.ofVirtual().start(() -> serve(socket));
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void serve(Socket socket) {
        try (socket) {
            InputStream in = socket.getInputStream();
            OutputStream out = socket.getOutputStream();
            boolean keepAlive = true;
            while (keepAlive && RawRequests.read(in)) {
                calls.incrementAndGet();
                Reply reply = script.poll();
                open.incrementAndGet();
                try {
                    keepAlive = answer(reply == null ? always : reply, socket, in, out);
                } finally {
                    open.decrementAndGet();
                }
            }
        } catch (IOException | InterruptedException e) {
            // the caller hung up, or the upstream was closed
        } finally {
            connections.remove(socket);
        }
    }

    /** Sends one reply; true when the connection can serve another request. */
    private boolean answer(Reply reply, Socket socket, InputStream in, OutputStream out) throws IOException, InterruptedException {
        if (reply.status() == 0) {
            awaitCallerClose(in);
            return false;
        }
        StringBuilder head = new StringBuilder("HTTP/1.1 " + reply.status() + " Scripted\r\n");
        reply.headers().forEach((header, value) -> head.append(header).append(": ").append(value).append("\r\n"));
        if (reply.whole()) {
            byte[] body = reply.chunks().getFirst().data().getBytes(StandardCharsets.UTF_8);
            head.append("Content-Length: ").append(body.length).append("\r\n\r\n");
            send(out, head.toString().getBytes(StandardCharsets.US_ASCII));
            send(out, body);
            return true;
        }
        if (reply.end() == End.CLOSE) {
            head.append("Connection: close\r\n\r\n");
            send(out, head.toString().getBytes(StandardCharsets.US_ASCII));
            for (Chunk chunk : reply.chunks()) {
                if (chunk.pause().isPositive()) {
                    Thread.sleep(chunk.pause());
                }
                send(out, chunk.data().getBytes(StandardCharsets.UTF_8));
            }
            return false; // the close ends the body
        }
        head.append("Transfer-Encoding: chunked\r\n\r\n");
        send(out, head.toString().getBytes(StandardCharsets.US_ASCII));
        try {
            for (Chunk chunk : reply.chunks()) {
                if (chunk.pause().isPositive()) {
                    // The upstream holds its answer on purpose: that pause is what the script is for.
                    Thread.sleep(chunk.pause());
                }
                chunk(out, chunk.data().getBytes(StandardCharsets.UTF_8));
            }
            switch (reply.end()) {
                case COMPLETE -> {
                    send(out, "0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                    return true;
                }
                case CUT -> socket.setSoLinger(true, 0); // a reset, not a clean end
                case STALL -> awaitCallerClose(in);
                case CLOSE -> throw new IllegalStateException("sent above");
                case ENDLESS -> {
                    while (true) {
                        chunk(out, PADDING);
                    }
                }
            }
        } catch (IOException hungUp) {
            closedByCaller.incrementAndGet();
            throw hungUp;
        }
        return false;
    }

    private void awaitCallerClose(InputStream in) throws IOException {
        while (in.read() >= 0) {
            // hold the connection until the other side closes it
        }
        closedByCaller.incrementAndGet();
    }

    private void chunk(OutputStream out, byte[] data) throws IOException {
        if (data.length == 0) {
            return;
        }
        send(out, (Integer.toHexString(data.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        send(out, data);
        send(out, "\r\n".getBytes(StandardCharsets.US_ASCII));
    }

    private void send(OutputStream out, byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
        bytesSent.addAndGet(bytes.length);
    }

    private static byte[] filled(int length) {
        byte[] bytes = new byte[length];
        Arrays.fill(bytes, (byte) 'x');
        return bytes;
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        for (Socket socket : new ArrayList<>(connections)) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }

    @Override
    public String toString() {
        return "ScriptedUpstream[" + name + " at " + baseUrl() + "]";
    }
}
