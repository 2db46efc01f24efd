package dev.sluice.store;

/**
 * One page of a listing, as LiteLLM's {@code /key/list} takes it: {@code page} from 1,
 * {@code size} rows at most.
 */
public record Page(int number, int size) {
    public static final int MAX_SIZE = 1000;

    public Page {
        if (number < 1) {
            throw new IllegalArgumentException("page: " + number + " (expected: >= 1)");
        }
        if (size < 1 || size > MAX_SIZE) {
            throw new IllegalArgumentException("size: " + size + " (expected: 1 to " + MAX_SIZE + ")");
        }
    }

    public static Page of(int number, int size) {
        return new Page(number, size);
    }

    static void checkLimit(int limit) {
        if (limit < 1 || limit > MAX_SIZE) {
            throw new IllegalArgumentException("limit: " + limit + " (expected: 1 to " + MAX_SIZE + ")");
        }
    }

    /** Rows before this page. */
    public long offset() {
        return (long) (number - 1) * size;
    }
}
