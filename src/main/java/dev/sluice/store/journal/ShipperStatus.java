package dev.sluice.store.journal;

/**
 * What a {@link JournalShipper} has done, for metrics and the health page.
 *
 * @param sinkReachable false from a post that found the sink unreachable to the next that succeeded
 * @param lastError     the last failure's message; empty when none
 * @param shippedRows   rows posted (or set aside) and acknowledged since start
 * @param posts         successful posts since start
 * @param deadLetters   rows set aside since start because the sink refused them alone
 */
public record ShipperStatus(boolean sinkReachable, String lastError, long shippedRows, long posts, long deadLetters) {}
