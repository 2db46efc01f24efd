package dev.sluice.ops.callbacks;

import java.util.List;

/** How a callback's receiver reads a batch: the JSON body one post carries. */
@FunctionalInterface
interface BatchFormat {
    byte[] body(List<CallRecord> batch);
}
