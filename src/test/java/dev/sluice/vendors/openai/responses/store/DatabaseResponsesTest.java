package dev.sluice.vendors.openai.responses.store;

import static dev.sluice.vendors.openai.responses.store.StoredResponses.response;
import static dev.sluice.vendors.openai.responses.store.StoredResponses.sized;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.store.Database;
import dev.sluice.store.ResponseRepository;
import dev.sluice.store.StoreException;
import dev.sluice.store.StoredResponse;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.StoreTest;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** {@link DatabaseResponses} on a real Vert.x and both engines: called on an event loop, answered on it. */
class DatabaseResponsesTest {
    static final Duration HOUR = Duration.ofHours(1);
    static final ResponseLimits LIMITS = new ResponseLimits(HOUR, 1_000, 10_000);

    private final FakeClock clock = new FakeClock();
    private Vertx vertx;

    @BeforeEach
    void startVertx() {
        vertx = Vertx.vertx();
    }

    @AfterEach
    void closeVertx() throws Exception {
        vertx.close().await(10, TimeUnit.SECONDS);
    }

    @StoreTest
    void aSavedResponseIsFoundAndDeletedByItsOwnerOnly(Database database) throws Exception {
        DatabaseResponses responses = new DatabaseResponses(vertx, new ResponseRepository(database), LIMITS, clock);
        StoredResponse saved = response("resp_1", "owner-a", clock.instant(), LIMITS);

        onEventLoop(() -> responses.save(saved));

        assertThat(onEventLoop(() -> responses.find("resp_1", "owner-a"))).contains(saved);
        assertThat(onEventLoop(() -> responses.find("resp_1", "owner-b"))).isEmpty();
        assertThat(onEventLoop(() -> responses.delete("resp_1", "owner-b"))).isFalse();
        assertThat(onEventLoop(() -> responses.delete("resp_1", "owner-a"))).isTrue();
        assertThat(onEventLoop(() -> responses.find("resp_1", "owner-a"))).isEmpty();
    }

    @StoreTest
    void aResponseIsServedUntilMaxAgeHasPassed(Database database) throws Exception {
        DatabaseResponses responses = new DatabaseResponses(vertx, new ResponseRepository(database), LIMITS, clock);
        onEventLoop(() -> responses.save(response("resp_1", "owner-a", clock.instant(), LIMITS)));

        clock.advance(HOUR.minusNanos(1_000));
        assertThat(onEventLoop(() -> responses.find("resp_1", "owner-a"))).isPresent();

        clock.advance(Duration.ofNanos(1_000));
        assertThat(onEventLoop(() -> responses.find("resp_1", "owner-a"))).isEmpty();
        assertThat(onEventLoop(() -> responses.delete("resp_1", "owner-a"))).isFalse();
    }

    @StoreTest
    void aResponseLargerThanMaxBytesIsRefusedBeforeTheStoreIsAsked(Database database) {
        ResponseRepository repository = new ResponseRepository(database);
        DatabaseResponses responses = new DatabaseResponses(vertx, repository, LIMITS, clock);

        assertThatThrownBy(() -> onEventLoop(() -> responses.save(sized("resp_big", "owner-a", clock.instant(), LIMITS, 10_001))))
                .cause().isInstanceOf(IllegalArgumentException.class)
                .hasMessage("response resp_big: 10001 bytes of JSON (expected: at most maxBytes, 10000, to be kept)");
        assertThat(repository.find("resp_big", "owner-a", clock.instant())).isEmpty();
    }

    @StoreTest
    void anIdTakenAlreadyIsSaidToBe(Database database) throws Exception {
        DatabaseResponses responses = new DatabaseResponses(vertx, new ResponseRepository(database), LIMITS, clock);
        onEventLoop(() -> responses.save(response("resp_1", "owner-a", clock.instant(), LIMITS)));

        assertThatThrownBy(() -> onEventLoop(() -> responses.save(response("resp_1", "owner-b", clock.instant(), LIMITS))))
                .cause().isInstanceOf(IllegalStateException.class)
                .hasMessage("response resp_1: the id is already taken")
                .cause().isInstanceOf(StoreException.class);
    }

    @StoreTest
    void theFirstSaveAndEveryNthAfterItPruneToTheNewestMaxCount(Database database) throws Exception {
        ResponseLimits two = new ResponseLimits(HOUR, 2, 10_000);
        ResponseRepository repository = new ResponseRepository(database);
        Instant start = clock.instant();
        for (int i = 1; i <= 3; i++) {
            // Left by an earlier run of the gateway.
            clock.advance(Duration.ofMinutes(1));
            repository.save(response("resp_" + i, "owner-a", clock.instant(), two));
        }
        DatabaseResponses responses = new DatabaseResponses(vertx, repository, two, clock, 3);

        saveAMinuteLater(responses, "resp_4", two);
        assertThat(stored(repository, start, 7)).containsExactly("resp_3", "resp_4");

        saveAMinuteLater(responses, "resp_5", two);
        saveAMinuteLater(responses, "resp_6", two);
        assertThat(stored(repository, start, 7)).containsExactly("resp_3", "resp_4", "resp_5", "resp_6");

        saveAMinuteLater(responses, "resp_7", two);
        assertThat(stored(repository, start, 7)).containsExactly("resp_6", "resp_7");
    }

    @StoreTest
    void aPruneDropsTheExpiredRows(Database database) throws Exception {
        ResponseRepository repository = new ResponseRepository(database);
        DatabaseResponses responses = new DatabaseResponses(vertx, repository, LIMITS, clock, 1);
        Instant start = clock.instant();
        onEventLoop(() -> responses.save(response("resp_1", "owner-a", start, LIMITS)));

        clock.advance(HOUR);
        onEventLoop(() -> responses.save(response("resp_2", "owner-a", clock.instant(), LIMITS)));

        assertThat(stored(repository, start, 2)).containsExactly("resp_2");
    }

    @StoreTest
    void aStoreThatFailsFailsTheFutureWithItsReason(Database database) {
        DatabaseResponses responses = new DatabaseResponses(vertx, new ResponseRepository(database), LIMITS, clock);
        database.close();

        assertThatThrownBy(() -> onEventLoop(() -> responses.find("resp_1", "owner-a")))
                .cause().isInstanceOfSatisfying(StoreException.class,
                        e -> assertThat(e.reason()).isEqualTo(StoreException.Reason.FAILED))
                .hasMessage("find response: the store is closed");
    }

    private void saveAMinuteLater(DatabaseResponses responses, String id, ResponseLimits limits) throws Exception {
        clock.advance(Duration.ofMinutes(1));
        onEventLoop(() -> responses.save(response(id, "owner-a", clock.instant(), limits)));
    }

    /** Which of resp_1 .. resp_{@code last} are still in the table, expired or not: as the repository finds them at {@code at}. */
    private static List<String> stored(ResponseRepository repository, Instant at, int last) {
        return Stream.iterate(1, i -> i <= last, i -> i + 1).map(i -> "resp_" + i)
                .filter(id -> repository.find(id, "owner-a", at).isPresent()).toList();
    }

    /**
     * Calls {@code call} on an event loop and waits for its result, which must arrive on that
     * same event loop; a failed future is thrown as an {@link ExecutionException} of its cause.
     */
    private <T> T onEventLoop(Supplier<Future<T>> call) throws Exception {
        Context context = vertx.getOrCreateContext();
        CompletableFuture<T> done = new CompletableFuture<>();
        context.runOnContext(ignored -> call.get().onComplete(result -> {
            if (Vertx.currentContext() != context) {
                done.completeExceptionally(new AssertionError("completed on another context"));
            } else if (result.failed()) {
                done.completeExceptionally(result.cause());
            } else {
                done.complete(result.result());
            }
        }));
        return done.get(10, TimeUnit.SECONDS);
    }
}
