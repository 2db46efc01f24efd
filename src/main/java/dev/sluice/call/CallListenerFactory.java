package dev.sluice.call;

/**
 * Makes one more listener for each call, heard after the observers every call has (as OkHttp's
 * {@code EventListener.Factory} does): how a test of the call path watches a real gateway's
 * calls. Production has {@link #NONE}. Only this package can make one, since
 * {@link CallListener} is the call path's own.
 */
public abstract class CallListenerFactory {
    /** Adds no listener. */
    public static final CallListenerFactory NONE = new CallListenerFactory() {
        @Override
        CallListener create(String callId) {
            return CallListener.NONE;
        }
    };

    CallListenerFactory() {}

    /** The listener of the call {@code callId}, told its events on the call's event loop. */
    abstract CallListener create(String callId);
}
