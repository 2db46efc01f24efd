package dev.sluice.store.journal;

import java.io.IOException;
import java.nio.channels.FileChannel;

/**
 * How the group commit forces a file (a segment, or the folder after a segment was made) to
 * the disk. The journal uses {@link #DISK}; tests watch the forces through their own.
 */
@FunctionalInterface
interface ForceHook {
    ForceHook DISK = channel -> channel.force(false);

    void force(FileChannel channel) throws IOException;
}
