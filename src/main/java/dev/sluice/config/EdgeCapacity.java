package dev.sluice.config;

/**
 * What a heap of a given size holds at the edge, for the defaults of
 * {@code max_open_connections} and {@code global_max_parallel_requests}. The costs were
 * measured on the jar (docs/deploy.md, "Connections and memory"): an idle connection, opened
 * and sending nothing, holds about {@link #IDLE_CONNECTION_BYTES} of heap; a call in flight (a
 * stream open through the gateway, its upstream connection included) about
 * {@link #CALL_BYTES}. A quarter of the heap goes to idle connections, half to calls; the
 * rest is the gateway's own (tokenizer tables, caches, the model catalog).
 */
public final class EdgeCapacity {
    static final long IDLE_CONNECTION_BYTES = 8 * 1024;
    static final long CALL_BYTES = 48 * 1024;
    /** No default falls below these, however small the heap. */
    private static final int FLOOR = 64;

    private EdgeCapacity() {}

    /** {@code max_open_connections}' default for a heap of {@code heapBytes}. */
    public static int openConnections(long heapBytes) {
        return (int) Math.max(FLOOR, Math.min(Integer.MAX_VALUE, heapBytes / 4 / IDLE_CONNECTION_BYTES));
    }

    /** {@code global_max_parallel_requests}' default for a heap of {@code heapBytes}. */
    public static int callsInFlight(long heapBytes) {
        return (int) Math.max(FLOOR, Math.min(Integer.MAX_VALUE, heapBytes / 2 / CALL_BYTES));
    }
}
