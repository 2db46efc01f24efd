package dev.sluice.call;

import dev.sluice.vendors.upstream.UpstreamExchange;

/**
 * What one caller's request currently has open upstream, so that a hang-up can cancel it.
 * Touched only from the request's event loop.
 */
final class CallState {
    private final boolean http10;
    private UpstreamExchange exchange;
    private StreamRelay relay;
    private boolean clientGone;
    private boolean cut;

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

    /** Whether the gateway cut this call as it stopped. */
    boolean cut() {
        return cut;
    }

    /** Whether routing should stop: the caller left, or the gateway cut the call. */
    boolean stopped() {
        return clientGone || cut;
    }

    /** Records the upstream call just started; cancels it at once if the caller already left. */
    void opened(UpstreamExchange exchange) {
        this.exchange = exchange;
        if (clientGone || cut) {
            exchange.cancel();
        }
    }

    void relaying(StreamRelay relay) {
        this.relay = relay;
    }

    /**
     * The gateway is stopping and its drain deadline ran out: a stream under way ends with an
     * error event, anything else open upstream is cancelled, and routing stops.
     */
    void onCut() {
        if (clientGone || cut) {
            return;
        }
        cut = true;
        if (relay != null) {
            relay.cut();
        } else if (exchange != null) {
            exchange.cancel();
        }
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
