package dev.sluice.store;

import static dev.sluice.store.StoreFixtures.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.testing.StoreTest;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;

/** sluice_responses through {@link ResponseRepository}, on both engines. */
class ResponseRepositoryTest {
    static final Duration DAY = Duration.ofDays(1);
    static final Duration MICRO = Duration.ofNanos(1_000);

    static StoredResponse response(String id, String owner, Instant createdAt, Duration life) {
        return new StoredResponse(id, owner, "gpt-4o", createdAt, createdAt.plus(life),
                "{\"id\":\"" + id + "\",\"object\":\"response\",\"output_text\":\"Grüße 👋\"}",
                "[{\"role\":\"user\",\"content\":\"hi\"},{\"role\":\"assistant\",\"content\":\"Grüße 👋\"}]");
    }

    @StoreTest
    void aResponseReadsBackAsItWasWrittenWithItsSize(Database database) {
        ResponseRepository responses = new ResponseRepository(database);
        StoredResponse written = response("resp_1", "owner-a", T0.plusNanos(1_500), DAY);

        responses.save(written);

        assertThat(responses.find("resp_1", "owner-a", T0)).contains(written);
        assertThat(sizeColumn(database, "resp_1")).isEqualTo(written.sizeBytes()).isPositive();
    }

    @StoreTest
    void anIdIsTakenOnceWhoeverOwnsIt(Database database) {
        ResponseRepository responses = new ResponseRepository(database);
        responses.save(response("resp_1", "owner-a", T0, DAY));

        assertThatThrownBy(() -> responses.save(response("resp_1", "owner-b", T0, DAY)))
                .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.reason()).isEqualTo(StoreException.Reason.CONFLICT));
        assertThat(responses.find("resp_1", "owner-a", T0)).isPresent();
    }

    @StoreTest
    void anotherOwnerNeitherFindsNorDeletesIt(Database database) {
        ResponseRepository responses = new ResponseRepository(database);
        responses.save(response("resp_1", "owner-a", T0, DAY));

        assertThat(responses.find("resp_1", "owner-b", T0)).isEmpty();
        assertThat(responses.delete("resp_1", "owner-b", T0)).isFalse();
        assertThat(responses.find("resp_1", "owner-a", T0)).isPresent();
    }

    @StoreTest
    void itIsServedUntilTheMomentItExpires(Database database) {
        ResponseRepository responses = new ResponseRepository(database);
        responses.save(response("resp_1", "owner-a", T0, DAY));
        Instant expiry = T0.plus(DAY);

        assertThat(responses.find("resp_1", "owner-a", expiry.minus(MICRO))).isPresent();
        assertThat(responses.find("resp_1", "owner-a", expiry)).isEmpty();
    }

    @StoreTest
    void anExpiredResponseIsNotDeletedButAnUnexpiredOneIsOnce(Database database) {
        ResponseRepository responses = new ResponseRepository(database);
        responses.save(response("resp_1", "owner-a", T0, DAY));
        Instant expiry = T0.plus(DAY);

        assertThat(responses.delete("resp_1", "owner-a", expiry)).isFalse();
        assertThat(responses.delete("resp_1", "owner-a", expiry.minus(MICRO))).isTrue();
        assertThat(responses.delete("resp_1", "owner-a", T0)).isFalse();
        assertThat(responses.find("resp_1", "owner-a", T0)).isEmpty();
    }

    @StoreTest
    void pruneDropsTheExpiredThenTheOldestBeyondTheRowCount(Database database) {
        ResponseRepository responses = new ResponseRepository(database);
        for (int i = 1; i <= 5; i++) {
            // resp_4 lives an hour; the others a day.
            responses.save(response("resp_" + i, "owner-a", T0.plus(Duration.ofMinutes(i)), i == 4 ? Duration.ofHours(1) : DAY));
        }
        Instant now = T0.plus(Duration.ofMinutes(4)).plus(Duration.ofHours(1));

        assertThat(responses.prune(now, 2)).isEqualTo(3);

        assertThat(kept(responses, now, 5)).containsExactly("resp_3", "resp_5");
    }

    @StoreTest
    void pruneDropsWhatExpiresAtNowAndKeepsWhatExpiresAMomentLater(Database database) {
        ResponseRepository responses = new ResponseRepository(database);
        responses.save(response("resp_1", "owner-a", T0, DAY));
        responses.save(response("resp_2", "owner-a", T0, DAY.plus(MICRO)));

        assertThat(responses.prune(T0.plus(DAY), 10)).isEqualTo(1);

        assertThat(kept(responses, T0, 2)).containsExactly("resp_2");
    }

    @StoreTest
    void responsesAnsweredAtOnceAreDroppedInTheOrderOfTheirIds(Database database) {
        ResponseRepository responses = new ResponseRepository(database);
        Stream.of("resp_c", "resp_a", "resp_b").forEach(id -> responses.save(response(id, "owner-a", T0, DAY)));

        assertThat(responses.prune(T0, 1)).isEqualTo(2);

        assertThat(kept(responses, T0, "resp_a", "resp_b", "resp_c")).containsExactly("resp_c");
    }

    @StoreTest
    void pruneWithinTheBoundDropsNothingAndABoundOfNoneDropsAll(Database database) {
        ResponseRepository responses = new ResponseRepository(database);
        responses.save(response("resp_1", "owner-a", T0, DAY));
        responses.save(response("resp_2", "owner-a", T0.plusSeconds(1), DAY));

        assertThat(responses.prune(T0, 2)).isZero();
        assertThat(responses.prune(T0, 0)).isEqualTo(2);
        assertThat(responses.prune(T0, 0)).isZero();
    }

    @StoreTest
    void aNegativeRowCountIsRefused(Database database) {
        assertThatThrownBy(() -> new ResponseRepository(database).prune(T0, -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxRows: -1 (expected: >= 0)");
    }

    /** Which of resp_1 .. resp_{@code last} owner-a still finds at {@code now}. */
    private static List<String> kept(ResponseRepository responses, Instant now, int last) {
        return kept(responses, now, Stream.iterate(1, i -> i <= last, i -> i + 1).map(i -> "resp_" + i).toArray(String[]::new));
    }

    private static List<String> kept(ResponseRepository responses, Instant now, String... ids) {
        return Stream.of(ids).filter(id -> responses.find(id, "owner-a", now).isPresent()).toList();
    }

    private static long sizeColumn(Database database, String id) {
        return database.withConnection("read size", connection -> {
            try (PreparedStatement statement = connection.prepareStatement(
                    "SELECT size_bytes FROM sluice_responses WHERE response_id = ?")) {
                statement.setString(1, id);
                try (ResultSet row = statement.executeQuery()) {
                    row.next();
                    return row.getLong(1);
                }
            }
        });
    }
}
