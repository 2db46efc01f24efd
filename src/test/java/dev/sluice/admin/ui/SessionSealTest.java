package dev.sluice.admin.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.Secret;
import dev.sluice.testing.FakeClock;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Sealed sessions: what opens them, until when, and what their CSRF token is bound to. */
class SessionSealTest {
    private final FakeClock clock = new FakeClock();
    private final SessionSeal seal = SessionSeal.of(Optional.of(new Secret("sk-master")), clock);

    @Test
    void aSealedSessionOpensWithItsKeyAndTimesUntilTheLastSecondOfItsLifetime() {
        Session session = seal.open("sk-virtual-1234");
        String sealed = seal.seal(session);

        assertThat(sealed).doesNotContain("sk-virtual").matches("[A-Za-z0-9_-]+");
        assertThat(seal.unseal(sealed)).contains(session);
        assertThat(session.expiresAt()).isEqualTo(FakeClock.START.plus(SessionSeal.LIFETIME));

        clock.advance(SessionSeal.LIFETIME.minusSeconds(1));
        assertThat(seal.unseal(sealed)).as("one second before the end").contains(session);
        assertThat(seal.remaining(session)).isEqualTo(Duration.ofSeconds(1));
        clock.advance(Duration.ofSeconds(1));
        assertThat(seal.unseal(sealed)).as("at the end").isEmpty();
        assertThat(seal.remaining(session)).isZero();
    }

    @Test
    void aSessionOpensUnderTheSameMasterKeyElsewhereAndUnderNoOther() {
        String sealed = seal.seal(seal.open("sk-master"));

        assertThat(SessionSeal.of(Optional.of(new Secret("sk-master")), clock).unseal(sealed)).isPresent();
        assertThat(SessionSeal.of(Optional.of(new Secret("sk-other")), clock).unseal(sealed)).isEmpty();
        assertThat(SessionSeal.of(Optional.empty(), clock).unseal(sealed)).isEmpty();
    }

    @Test
    void anyChangedByteAndAnyMalformedValueIsRefused() {
        String sealed = seal.seal(seal.open("sk-virtual-1234"));
        byte[] bytes = Base64.getUrlDecoder().decode(sealed);
        for (int i = 0; i < bytes.length; i++) {
            byte[] tampered = bytes.clone();
            tampered[i] ^= 1;
            assertThat(seal.unseal(Base64.getUrlEncoder().withoutPadding().encodeToString(tampered))).as("byte " + i).isEmpty();
        }
        assertThat(seal.unseal("")).isEmpty();
        assertThat(seal.unseal("not base64!")).isEmpty();
        assertThat(seal.unseal("AQID")).isEmpty();
        assertThat(seal.unseal("A".repeat(10_000))).isEmpty();
        assertThat(seal.unseal(Base64.getUrlEncoder().encodeToString("sk-virtual-1234".getBytes(StandardCharsets.UTF_8))))
                .isEmpty();
    }

    @Test
    void theCsrfTokenBelongsToOneSessionAndIsTheSameWhereverItIsChecked() {
        Session one = seal.open("sk-master");
        Session two = seal.open("sk-master");
        String token = seal.csrfToken(one);

        assertThat(token).isNotEqualTo(seal.csrfToken(two)).doesNotContain("sk-master");
        assertThat(seal.csrfMatches(one, token)).isTrue();
        assertThat(seal.csrfMatches(two, token)).isFalse();
        assertThat(seal.csrfMatches(one, null)).isFalse();
        assertThat(seal.csrfMatches(one, "")).isFalse();
        Session reopened = SessionSeal.of(Optional.of(new Secret("sk-master")), clock).unseal(seal.seal(one)).orElseThrow();
        assertThat(SessionSeal.of(Optional.of(new Secret("sk-master")), clock).csrfMatches(reopened, token)).isTrue();
        assertThat(SessionSeal.of(Optional.of(new Secret("sk-other")), clock).csrfMatches(one, token)).isFalse();
    }
}
