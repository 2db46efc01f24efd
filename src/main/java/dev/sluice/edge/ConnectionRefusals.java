package dev.sluice.edge;

import java.util.concurrent.atomic.LongAdder;

/** Connections closed as they were accepted, by why: counted for {@code /metrics}. Thread-safe. */
public final class ConnectionRefusals {
    private final LongAdder tooMany = new LongAdder();
    private final LongAdder tooManyFromAddress = new LongAdder();

    void refused(OpenConnections.Refusal refusal) {
        switch (refusal) {
            case TOO_MANY -> tooMany.increment();
            case TOO_MANY_FROM_ADDRESS -> tooManyFromAddress.increment();
            case NONE -> { }
        }
    }

    /** Closed because the gateway held all the connections it may, or its heap could take no more. */
    public long tooMany() {
        return tooMany.sum();
    }

    /** Closed because their address held {@code max_connections_per_ip} already. */
    public long tooManyFromAddress() {
        return tooManyFromAddress.sum();
    }
}
