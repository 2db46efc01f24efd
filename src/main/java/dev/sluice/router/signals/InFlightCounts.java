package dev.sluice.router.signals;

/** How many calls each deployment has open right now, streams included. Thread-safe. */
public interface InFlightCounts {
    void started(String deploymentId);

    /** Called exactly once per {@link #started}, however the call ended (served, failed, or the caller left). */
    void ended(String deploymentId);

    int count(String deploymentId);
}
