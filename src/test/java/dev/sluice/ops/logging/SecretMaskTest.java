package dev.sluice.ops.logging;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Each rule of {@link SecretMask}, with text on both sides of where it starts to apply. */
class SecretMaskTest {

    // sk- keys: four characters after the dash make a key.

    @Test
    void anSkKeyIsMasked() {
        assertThat(SecretMask.mask("key=sk-Zx81_q-AbCdEfGh rest")).isEqualTo("key=sk-**** rest");
    }

    @Test
    void anSkKeyOfFourCharactersIsMaskedAndOfThreeIsNot() {
        assertThat(SecretMask.mask("master sk-1234.")).isEqualTo("master sk-****.");
        assertThat(SecretMask.mask("master sk-123.")).isEqualTo("master sk-123.");
    }

    @ParameterizedTest
    @ValueSource(strings = {"task-12345678", "disk-io-12345", "x-sk-12345678"})
    void skInsideAWordIsNotAKey(String text) {
        assertThat(SecretMask.mask(text)).isEqualTo(text);
    }

    @Test
    void sluicesOwnAbbreviationOfAKeyIsLeftAlone() {
        assertThat(SecretMask.mask("key_name=sk-...3xQa alias=bot")).isEqualTo("key_name=sk-...3xQa alias=bot");
    }

    @Test
    void everyKeyInALineIsMasked() {
        assertThat(SecretMask.mask("\"sk-aaaaaaaa\",'sk-bbbbbbbb' (sk-cccccccc)"))
                .isEqualTo("\"sk-****\",'sk-****' (sk-****)");
    }

    // Bearer tokens.

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "Bearer abc.def-ghi_jkl+/=   | Bearer ****",
            "bearer t                    | bearer ****",
            "BEARER\tT0ken               | BEARER\t****"})
    void aBearerTokenIsMasked(String text, String masked) {
        assertThat(SecretMask.mask(text)).isEqualTo(masked);
    }

    @ParameterizedTest
    @ValueSource(strings = {"Bearer", "a Bearer ", "bearers tokens"})
    void theWordBearerWithoutATokenIsLeftAlone(String text) {
        assertThat(SecretMask.mask(text)).isEqualTo(text);
    }

    // Named values: headers, key=value, JSON.

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "password=hunter2 user=bob                  | password=**** user=bob",
            "PASSWORD: hunter2                          | PASSWORD: ****",
            "?user=u&password=p%40ss&ssl=true           | ?user=u&password=****&ssl=true",
            "x-api-key: abc123                          | x-api-key: ****",
            "api-key: abc123                            | api-key: ****",
            "api_key=abc123, next                       | api_key=****, next",
            "{\"api_key\": \"abc123\"}                  | {\"api_key\": \"****\"}",
            "{'master_key':'abc123'}                    | {'master_key':'****'}",
            "client_secret=abc; more                    | client_secret=****; more",
            "Authorization: Basic dXNlcjpwYXNz          | Authorization: Basic ****",
            "authorization=Bearer sk-x                  | authorization=Bearer ****",
            "Authorization: abc123                      | Authorization: ****"})
    void aNamedSecretIsMasked(String text, String masked) {
        assertThat(SecretMask.mask(text)).isEqualTo(masked);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "password= next",
            "password=",
            "password authentication failed for user \"bob\"",
            "refused the prompt: blocked word 'password'.",
            "token=5f2b0a9c keys.updated",
            "mypassword=x1"})
    void aNamedSecretWithoutAValueOrInsideAWordIsLeftAlone(String text) {
        assertThat(SecretMask.mask(text)).isEqualTo(text);
    }

    // Credentials in URLs.

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "postgresql://sluice:s3cret@db:5432/sluice  | postgresql://sluice:****@db:5432/sluice",
            "redis://:s3cret@cache:6379/0               | redis://:****@cache:6379/0",
            "at https://u:p@ss@host/v1 now              | at https://u:****@host/v1 now"})
    void aPasswordInAUrlIsMasked(String text, String masked) {
        assertThat(SecretMask.mask(text)).isEqualTo(masked);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "postgresql://sluice@db:5432/sluice",
            "http://127.0.0.1:4000/v1/chat/completions",
            "mailto:someone@example.com",
            "redis://cache:6379"})
    void aUrlWithoutAPasswordIsLeftAlone(String text) {
        assertThat(SecretMask.mask(text)).isEqualTo(text);
    }

    @Test
    void aLineWithNothingToMaskIsReturnedAsItIs() {
        String line = "router.retry call_id=c1 group=g deployment=a class=server delay_ms=120";
        assertThat(SecretMask.mask(line)).isSameAs(line);
    }

    // Secrets the gateway holds: masked with their echoes while held.

    @Test
    void aHeldSecretIsMaskedInAnyCaseAndAsARunOfTwelveUntilItsHolderCloses() {
        String key = "az-9f8e7d6c5b4a39281706";
        try (SecretMask.Known held = SecretMask.known()) {
            held.hold(java.util.List.of(key));
            assertThat(SecretMask.mask("upstream said " + key.toUpperCase())).isEqualTo("upstream said ****1706");
            assertThat(SecretMask.mask("cut " + key.substring(0, 12) + ".")).isEqualTo("cut ****.");
            assertThat(SecretMask.mask("cut " + key.substring(0, 11) + ".")).isEqualTo("cut " + key.substring(0, 11) + ".");
        }
        assertThat(SecretMask.mask("upstream said " + key)).as("no longer held").isEqualTo("upstream said " + key);
    }
}
