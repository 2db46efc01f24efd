package dev.sluice.call;

import dev.sluice.upstream.UpstreamExchange;

/**
 * What one caller's request currently has open upstream, so that a hang-up can cancel it.
 * Touched only from the request's event loop.
 */
final class CallState {
    private final boolean http10;
    private UpstreamExchange exchange;
    private StreamRelay relay;
    private boolean clientGone;

    /** @param http10 whether the caller speaks HTTP/1.0, which cannot take a chunked stream */
    CallState(boolean http10) {
        this.http10 = http10;
    }

    boolean http10() {
        return http10;
    }

    boolean clientGone() {
        return clientGone;
    }

    /** Records the upstream call just started; cancels it at once if the caller already left. */
    void opened(UpstreamExchange exchange) {
        this.exchange = exchange;
        if (clientGone) {
            exchange.cancel();
        }
    }

    void relaying(StreamRelay relay) {
        this.relay = relay;
    }

    /** The caller's connection closed before the answer was complete. */
    void onClientGone() {
        clientGone = true;
        if (relay != null) {
            relay.clientGone();
        } else if (exchange != null) {
            exchange.cancel();
        }
    }
}
