package dev.sluice.accounts;

import java.util.Optional;

/**
 * Copies of the keys recently read from the store, kept outside the process (in Redis, shared
 * by the replicas) so that a replica started or restarted while the store cannot be reached
 * still serves the keys in use. Only {@link KeyDirectory} uses them, and reads them only when
 * the store cannot answer. Calls may block (they are made on the directory's virtual
 * threads); none throws: a copy that cannot be written or read is as good as none.
 */
public interface KeyCopies {
    /** Keeps (or replaces) the copy of a key the store has just answered for, for the copies' lifetime. */
    void keep(KeyDirectory.Found found);

    /** Drops the copy of a key at once: it was changed, blocked or deleted, or the store no longer has it. */
    void drop(String tokenHash);

    /** The copy of a key, when one is held and can be read now. */
    Optional<KeyDirectory.Found> find(String tokenHash);

    /** Whether copies can be read now (Redis answers): a replica holding no key in memory can still check keys. */
    boolean readable();

    /** No copies: without Redis, or with the copies' lifetime set to 0. */
    KeyCopies NONE = new KeyCopies() {
        @Override
        public void keep(KeyDirectory.Found found) {}

        @Override
        public void drop(String tokenHash) {}

        @Override
        public Optional<KeyDirectory.Found> find(String tokenHash) {
            return Optional.empty();
        }

        @Override
        public boolean readable() {
            return false;
        }
    };
}
