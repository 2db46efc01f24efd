package dev.sluice.accounts.spend;

import dev.sluice.store.SpendRow;

/** Where finished calls' spend rows go, to be written to the store behind the request. */
@FunctionalInterface
public interface SpendRecorder {

    /**
     * Takes a row without blocking. False only when it cannot be kept anywhere (the store is
     * unreachable and the buffer for that is full): the gateway then refuses billable calls.
     */
    boolean record(SpendRow row);

    /** Whether a new row could be kept now. */
    default boolean accepting() {
        return true;
    }

    /** Whether rows are kept at all: false when there is no store, and then a call's tokens matter only for its cost. */
    default boolean keepsRows() {
        return true;
    }

    /** Where rows go when there is no store: nowhere. */
    SpendRecorder NONE = new SpendRecorder() {
        @Override
        public boolean record(SpendRow row) {
            return true;
        }

        @Override
        public boolean keepsRows() {
            return false;
        }
    };
}
