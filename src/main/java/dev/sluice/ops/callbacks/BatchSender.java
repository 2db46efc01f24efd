package dev.sluice.ops.callbacks;

import java.util.List;

/** Posts one batch of records to a callback's receiver, once, and says how that went. */
@FunctionalInterface
interface BatchSender {
    /** Never throws: a failure to post is a {@link SendResult}. */
    SendResult send(List<CallRecord> batch) throws InterruptedException;
}
