package dev.sluice.router.harness;

import dev.sluice.router.Delays;
import dev.sluice.testing.FakeTime;
import io.vertx.core.Future;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Waits by moving {@link FakeTime} forward instead of sleeping, and keeps every wait it was asked for. */
public final class FakeDelays implements Delays {
    private final FakeTime time;
    private final List<Duration> waits = new CopyOnWriteArrayList<>();

    public FakeDelays(FakeTime time) {
        this.time = time;
    }

    @Override
    public Future<Void> after(Duration wait) {
        waits.add(wait);
        if (!wait.isNegative()) {
            time.advance(wait);
        }
        return Future.succeededFuture();
    }

    /** Every wait asked for, in order. */
    public List<Duration> waits() {
        return List.copyOf(waits);
    }
}
