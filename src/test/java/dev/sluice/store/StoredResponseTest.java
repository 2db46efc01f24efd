package dev.sluice.store;

import static dev.sluice.store.StoreFixtures.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A stored response's rules and measure, checked before anything reaches a store. */
class StoredResponseTest {

    @Test
    void itsSizeIsTheUtf8LengthOfItsTwoJsonTexts() {
        String response = "{\"output_text\":\"naïve €5 👋\"}";
        String conversation = "[{\"content\":\"日本語\"}]";
        StoredResponse stored = new StoredResponse("resp_1", "o", "g", T0, T0.plusSeconds(1), response, conversation);

        assertThat(stored.sizeBytes()).isEqualTo(response.getBytes(StandardCharsets.UTF_8).length
                + conversation.getBytes(StandardCharsets.UTF_8).length);
    }

    @Test
    void itExpiresAtItsExpiryNotBefore() {
        StoredResponse stored = new StoredResponse("resp_1", "o", "g", T0, T0.plusSeconds(60), "{}", "[]");

        assertThat(stored.expiredAt(T0.plusSeconds(60).minusNanos(1))).isFalse();
        assertThat(stored.expiredAt(T0.plusSeconds(60))).isTrue();
    }

    @Test
    void itsTimesAreKeptToTheMicrosecondAsTheColumnsHoldThem() {
        StoredResponse stored = new StoredResponse("resp_1", "o", "g", T0.plusNanos(1_999), T0.plusSeconds(1).plusNanos(7), "{}", "[]");

        assertThat(stored.createdAt()).isEqualTo(T0.plusNanos(1_000));
        assertThat(stored.expiresAt()).isEqualTo(T0.plusSeconds(1));
    }

    @Test
    void anExpiryNotAfterItsCreationIsRefused() {
        assertThatThrownBy(() -> new StoredResponse("resp_1", "o", "g", T0, T0, "{}", "[]"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("expiresAt: 2025-01-01T00:00:00Z (expected: after createdAt 2025-01-01T00:00:00Z)");
    }

    @Test
    void namesMustBeOneTo255CharactersNotAllBlank() {
        Duration day = Duration.ofDays(1);
        assertThatThrownBy(() -> new StoredResponse(" ", "o", "g", T0, T0.plus(day), "{}", "[]"))
                .hasMessage("id: \" \" (expected: 1 to 255 characters, not all blank)");
        assertThatThrownBy(() -> new StoredResponse("resp_1", "x".repeat(256), "g", T0, T0.plus(day), "{}", "[]"))
                .hasMessage("owner: \"" + "x".repeat(40) + "...\" (expected: 1 to 255 characters, not all blank)");
        assertThatThrownBy(() -> new StoredResponse("resp_1", "o", null, T0, T0.plus(day), "{}", "[]"))
                .isInstanceOf(NullPointerException.class).hasMessage("group");
        assertThat(new StoredResponse("resp_1", "x".repeat(255), "g", T0, T0.plus(day), "{}", "[]").owner()).hasSize(255);
    }
}
