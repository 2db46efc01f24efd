package dev.sluice.ops.logging;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each echo {@link SecretEchoes} finds, with a run of the secret on both sides of {@value SecretEchoes#RUN} characters. */
class SecretEchoesTest {
    private static final String KEY = "sk-proj-Q7wErTy9uIoP4aSdFgH2jK";
    private static final SecretEchoes MASK = SecretEchoes.of(List.of(KEY));

    @Test
    void theWholeKeyShowsOnlyItsLastFour() {
        assertThat(MASK.mask("Incorrect API key provided: " + KEY + ".")).isEqualTo("Incorrect API key provided: ****H2jK.");
    }

    @Test
    void theKeyInAnotherCaseIsMasked() {
        assertThat(MASK.mask("KEY " + KEY.toUpperCase() + " refused")).isEqualTo("KEY ****H2jK refused");
        assertThat(MASK.mask("key " + KEY.toLowerCase())).isEqualTo("key ****H2jK");
    }

    @Test
    void aRunOfTwelveCharactersOfTheKeyIsMaskedAndOfElevenIsNot() {
        String twelve = KEY.substring(5, 17);
        String eleven = KEY.substring(5, 16);
        assertThat(MASK.mask("got " + twelve + "...")).isEqualTo("got ****...");
        assertThat(MASK.mask("got " + eleven + "...")).isEqualTo("got " + eleven + "...");
        assertThat(MASK.mask("got " + twelve.toUpperCase() + "!")).isEqualTo("got ****!");
    }

    @Test
    void aKeyCutShortOrSplitIsMaskedPieceByPiece() {
        String truncated = KEY.substring(0, 20) + "...";
        assertThat(MASK.mask("key " + truncated)).isEqualTo("key ****...");
        String split = KEY.substring(0, 14) + "\", \"" + KEY.substring(14);
        assertThat(MASK.mask(split)).isEqualTo("****\", \"****");
    }

    @Test
    void theKeyBase64EncodedAtAnyAlignmentIsMasked() {
        for (String prefix : List.of("", "u:", "us:", "use:")) {
            String basic = Base64.getEncoder().encodeToString((prefix + KEY).getBytes(StandardCharsets.UTF_8));
            String shown = MASK.mask("Authorization: Basic " + basic);
            assertThat(shown).as(prefix).contains("****").doesNotContain(basic);
            String urlSafe = Base64.getUrlEncoder().encodeToString((prefix + KEY + "?>").getBytes(StandardCharsets.UTF_8));
            assertThat(MASK.mask("t=" + urlSafe)).as(prefix).contains("****");
        }
    }

    @Test
    void theKeyPercentEncodedIsMasked() {
        String key = "abc+def/ghi=jkl&mno";
        String encoded = URLEncoder.encode(key, StandardCharsets.UTF_8);
        assertThat(SecretEchoes.of(List.of(key)).mask("https://x/?key=" + encoded)).isEqualTo("https://x/?key=****");
    }

    @Test
    void aShortKeyIsMaskedOnlyWholeAndAKeyUnderFourCharactersNotAtAll() {
        SecretEchoes shortKey = SecretEchoes.of(List.of("k-12345"));
        assertThat(shortKey.mask("bad key K-12345!")).isEqualTo("bad key ****!");
        assertThat(shortKey.mask("bad key k-1234!")).isEqualTo("bad key k-1234!");
        assertThat(SecretEchoes.of(List.of("abc")).mask("abc abc")).isEqualTo("abc abc");
    }

    @Test
    void textWithoutTheKeyIsReturnedAsItIs() {
        String text = "The model gpt-4o does not exist or you do not have access to it.";
        assertThat(MASK.mask(text)).isSameAs(text);
        assertThat(SecretEchoes.NONE.mask(KEY)).isEqualTo(KEY);
    }

    @Test
    void theFormsOfAKeyAreWorkedOutOncePerSet() {
        assertThat(SecretEchoes.of(List.of(KEY))).isSameAs(MASK);
    }
}
