/**
 * The spend journal: every finished call's {@link dev.sluice.store.SpendRow} is appended to
 * a local log before the call's answer ends, made durable by a group commit a few
 * milliseconds later, and moved to a {@link dev.sluice.store.SpendSink} in large batches by a
 * shipper, which lets the log's segments go only once the sink committed their rows.
 *
 * <p>{@link dev.sluice.store.journal.SpendJournal} is the log (append, group commit,
 * segments, bound, replay at open); {@link dev.sluice.store.journal.JournalShipper} is the
 * thread that ships it. A crash of the process loses no accepted row; a power loss loses at
 * most one commit interval of them; a row may be posted twice after a crash, which the
 * idempotent sink absorbs.
 */
package dev.sluice.store.journal;

