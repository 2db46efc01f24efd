package dev.sluice.store.journal;

/** Waiting for one of the journal's own threads to end when it is told to stop. */
final class ThreadEnd {
    private ThreadEnd() {}

    /**
     * Waits until {@code thread} has ended, through interrupts: a stop must not leave the thread
     * writing after its journal is closed.
     *
     * @return whether the caller was interrupted meanwhile; it sets its interrupt again once its
     *         own last file work is done, as an interrupted thread's file channel closes
     */
    static boolean await(Thread thread) {
        boolean interrupted = false;
        while (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        return interrupted;
    }
}
