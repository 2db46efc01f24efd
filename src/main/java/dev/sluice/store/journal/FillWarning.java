package dev.sluice.store.journal;

import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The journal's loud word when the shipper falls behind: a WARN on passing 80 % of the bound,
 * once, and an INFO when it falls back under 70 %, after which passing 80 % warns again. The
 * gap keeps a journal hovering at the line from logging on every append. Guarded by the
 * journal's lock.
 */
final class FillWarning {
    private static final Logger LOG = LoggerFactory.getLogger(SpendJournal.class);

    private final Path folder;
    private final long maxBytes;
    private boolean warned;

    FillWarning(Path folder, long maxBytes) {
        this.folder = folder;
        this.maxBytes = maxBytes;
    }

    /** After the journal grew to {@code bytes}. */
    void grew(long bytes, long pending) {
        if (!warned && bytes > maxBytes / 10 * 8) {
            warned = true;
            LOG.warn("spend journal {}: {} of its {} bytes in use ({} records pending); the shipper is behind, and past"
                    + " the bound rows are refused", folder, bytes, maxBytes, pending);
        }
    }

    /** After segments were deleted, leaving {@code bytes}. */
    void shrank(long bytes) {
        if (warned && bytes < maxBytes / 10 * 7) {
            warned = false;
            LOG.info("spend journal {}: back under 70 % of its bound ({} of {} bytes)", folder, bytes, maxBytes);
        }
    }
}
