package dev.sluice.catalog;

import static dev.sluice.catalog.TokenEncoding.CL100K_BASE;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.catalog.CachePrefixes.CacheKeys;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class CachePrefixesTest {
    /** Instructions well over the 1024 tokens a provider caches from. */
    private static final String LONG = "Answer in the house style. " + "Cite every source you use and keep to the facts. ".repeat(120);
    private static final String SHORT = "Be brief.";

    private final PromptTokens tokens = new PromptTokens();
    private final CachePrefixes prefixes = new CachePrefixes(tokens);

    @BeforeAll
    static void theLongTextIsLongEnough() {
        assertThat(CL100K_BASE.count(LONG)).isBetween(CachePrefixes.MIN_CACHEABLE_TOKENS + 100, 2 * CachePrefixes.MIN_CACHEABLE_TOKENS);
    }

    private static ObjectNode body(String json) {
        try {
            return (ObjectNode) Json.MAPPER.readTree(json);
        } catch (IOException e) {
            throw new IllegalArgumentException(json, e);
        }
    }

    private static String text(String s) {
        return Json.MAPPER.getNodeFactory().textNode(s).toString();
    }

    private CacheKeys keys(String group, String json) {
        ObjectNode body = body(json);
        return prefixes.keys(group, body, tokens.count(body, CL100K_BASE), CL100K_BASE);
    }

    private CacheKeys keys(String json) {
        return keys("chat", json);
    }

    private static String chat(String... messages) {
        return "{\"messages\": [" + String.join(", ", messages) + "]}";
    }

    private static String message(String role, String content) {
        return "{\"role\": \"" + role + "\", \"content\": " + text(content) + "}";
    }

    @Test
    void aShortPromptHasNoKeys() {
        assertThat(keys(chat(message("system", SHORT), message("user", "hi")))).isEqualTo(CacheKeys.NONE);
    }

    @Test
    void theNextTurnLooksUpWhatThePreviousTurnPinned() {
        CacheKeys first = keys(chat(message("system", LONG), message("user", "What is a cache?")));
        CacheKeys second = keys(chat(message("system", LONG), message("user", "What is a cache?"),
                message("assistant", "A store of recent answers."), message("user", "And a prefix?")));
        CacheKeys third = keys(chat(message("system", LONG), message("user", "What is a cache?"),
                message("assistant", "A store of recent answers."), message("user", "And a prefix?"),
                message("assistant", "The start of a prompt."), message("user", "Thanks.")));

        assertThat(first.pin()).contains(second.lookup().orElseThrow());
        assertThat(second.pin()).contains(third.lookup().orElseThrow());
        assertThat(second.lookup()).isNotEqualTo(third.lookup());
    }

    @Test
    void fewShotPromptsWithTheSameExamplesFindEachOther() {
        CacheKeys one = keys(chat(message("system", LONG), message("user", "2 + 2?"), message("assistant", "4"),
                message("user", "3 + 3?")));
        CacheKeys other = keys(chat(message("system", LONG), message("user", "2 + 2?"), message("assistant", "4"),
                message("user", "5 + 5?")));

        assertThat(one.lookup()).isPresent().isEqualTo(other.lookup());
        assertThat(one.pin()).contains(other.lookup().orElseThrow());
    }

    @Test
    void requestsThatShareLongInstructionsShareALookupKey() {
        CacheKeys one = keys(chat(message("system", LONG), message("user", "Summarise the report.")));
        CacheKeys other = keys(chat(message("system", LONG), message("user", "Translate the report.")));

        assertThat(one.lookup()).isPresent().isEqualTo(other.lookup());
        assertThat(one.pin()).contains(other.lookup().orElseThrow());
        assertThat(one.pin()).hasSize(2); // the whole prompt and the shared instructions
    }

    @Test
    void aPrefixBelowTheThresholdGetsNoKeyEvenInALongPrompt() {
        CacheKeys keys = keys(chat(message("system", SHORT), message("user", LONG)));

        assertThat(keys.lookup()).isEmpty();
        assertThat(keys.pin()).hasSize(1); // only the whole prompt, for its next turn
    }

    @Test
    void theKeyIsPerModelGroup() {
        String body = chat(message("system", LONG), message("user", "hi"));

        assertThat(keys("chat", body).lookup()).isNotEqualTo(keys("chat-eu", body).lookup());
    }

    @Test
    void theKeyIsTheHexSha256OfTheCanonicalPrefixWhateverTheKeyOrder() {
        CacheKeys ordered = keys(chat("{\"role\": \"system\", \"content\": " + text(LONG) + "}", message("user", "a")));
        CacheKeys reordered = keys(chat("{\"content\": " + text(LONG) + ", \"role\": \"system\"}", message("user", "b")));

        assertThat(ordered.lookup()).hasValueSatisfying(key -> assertThat(key).matches("[0-9a-f]{64}"));
        assertThat(ordered.lookup()).isEqualTo(reordered.lookup());
    }

    @Test
    void toolsArePartOfThePrefix() {
        String messages = "\"messages\": [" + message("system", LONG) + ", " + message("user", "hi") + "]";
        CacheKeys withTool = keys("{\"tools\": [{\"type\": \"function\", \"function\": {\"name\": \"a\"}}], " + messages + "}");
        CacheKeys otherTool = keys("{\"tools\": [{\"type\": \"function\", \"function\": {\"name\": \"b\"}}], " + messages + "}");

        assertThat(withTool.lookup()).isPresent().isNotEqualTo(otherTool.lookup());
    }

    @Test
    void aMarkedBlockIsTheSharedPrefixAndWhatFollowsItDoesNotMatter() {
        String marked = "{\"role\": \"system\", \"content\": [{\"type\": \"text\", \"text\": " + text(LONG)
                + ", \"cache_control\": {\"type\": \"ephemeral\"}}, {\"type\": \"text\", \"text\": \"%s\"}]}";
        CacheKeys monday = keys(chat(marked.formatted("Today is Monday."), message("user", "Plan my day.")));
        CacheKeys tuesday = keys(chat(marked.formatted("Today is Tuesday."), message("user", "Plan my week.")));

        assertThat(monday.lookup()).isPresent().isEqualTo(tuesday.lookup());
        assertThat(tuesday.pin()).contains(monday.lookup().orElseThrow());
    }

    @Test
    void aMarkInTheNewestMessageIsPinnedButNotLookedUp() {
        String question = "{\"role\": \"user\", \"content\": [{\"type\": \"text\", \"text\": " + text(LONG)
                + ", \"cache_control\": {\"type\": \"ephemeral\"}}]}";
        CacheKeys keys = keys(chat(message("system", SHORT), question));

        assertThat(keys.lookup()).isEmpty();
        assertThat(keys.pin()).hasSize(1);
    }

    @Test
    void aMarkThatMovesToTheNewestMessageEachTurnStillFindsThePreviousTurn() {
        String first = "{\"role\": \"user\", \"content\": [{\"type\": \"text\", \"text\": " + text(LONG)
                + ", \"cache_control\": {\"type\": \"ephemeral\"}}]}";
        String firstUnmarked = "{\"role\": \"user\", \"content\": [{\"type\": \"text\", \"text\": " + text(LONG) + "}]}";
        String second = "{\"role\": \"user\", \"content\": [{\"type\": \"text\", \"text\": \"More.\","
                + " \"cache_control\": {\"type\": \"ephemeral\"}}]}";

        CacheKeys turn1 = keys(chat(message("system", SHORT), first));
        CacheKeys turn2 = keys(chat(message("system", SHORT), firstUnmarked, message("assistant", "Done."), second));

        assertThat(turn1.pin()).contains(turn2.lookup().orElseThrow());
    }

    @Test
    void aMarkedTopLevelSystemIsASharedPrefixOfItsOwn() {
        String system = "\"system\": [{\"type\": \"text\", \"text\": " + text(LONG) + ", \"cache_control\": {\"type\": \"ephemeral\"}}]";
        CacheKeys one = keys("{" + system + ", \"messages\": [" + message("user", "one") + "]}");
        CacheKeys two = keys("{" + system + ", \"messages\": [" + message("user", "two") + "]}");

        assertThat(one.lookup()).isPresent().isEqualTo(two.lookup());
    }

    @Test
    void aPinLastsFiveMinutesOrTheHourAMarkAsksFor() {
        String marked = "{\"role\": \"system\", \"content\": [{\"type\": \"text\", \"text\": " + text(LONG)
                + ", \"cache_control\": {\"type\": \"ephemeral\"%s}}]}";

        assertThat(keys(chat(marked.formatted(""), message("user", "hi"))).ttl()).isEqualTo(Duration.ofMinutes(5));
        assertThat(keys(chat(marked.formatted(", \"ttl\": \"1h\""), message("user", "hi"))).ttl())
                .isEqualTo(Duration.ofHours(1));
    }

    @Test
    void keyOfIsTheLookupKey() {
        ObjectNode body = body(chat(message("system", LONG), message("user", "hi")));
        int count = tokens.count(body, CL100K_BASE);

        assertThat(prefixes.keyOf("chat", body, count, CL100K_BASE)).isEqualTo(prefixes.keys("chat", body, count, CL100K_BASE).lookup());
    }

    @Test
    void completionsAndEmbeddingsHaveNoKeys() {
        ObjectNode prompt = body("{\"prompt\": " + text(LONG) + "}");
        ObjectNode input = body("{\"input\": " + text(LONG) + "}");

        assertThat(prefixes.keys("chat", prompt, tokens.count(prompt, CL100K_BASE), CL100K_BASE)).isEqualTo(CacheKeys.NONE);
        assertThat(prefixes.keys("chat", input, tokens.count(input, CL100K_BASE), CL100K_BASE)).isEqualTo(CacheKeys.NONE);
    }
}
