package dev.sluice.ops.metrics;

import dev.sluice.accounts.spend.SpendRecorder;
import dev.sluice.store.SpendRow;

/**
 * The spend recorder that also tells the metrics of every finished call: each call, keyed or
 * not, with a store or without, ends in exactly one spend row, which carries its group, tokens
 * and cost.
 */
public record MeteredSpend(SpendRecorder recorder, GatewayMetrics metrics) implements SpendRecorder {

    @Override
    public boolean record(SpendRow row) {
        metrics.callEnded(row);
        return recorder.record(row);
    }

    @Override
    public boolean accepting() {
        return recorder.accepting();
    }

    @Override
    public boolean keepsRows() {
        return recorder.keepsRows();
    }
}
