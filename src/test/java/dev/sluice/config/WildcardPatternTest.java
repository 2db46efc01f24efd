package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** How a wildcard pattern matches a name and fills a deployment's model, by LiteLLM's rules. */
class WildcardPatternTest {

    private static String served(String pattern, String deploymentModel, String requested) {
        List<String> segments = WildcardPattern.of(pattern).segments(requested).orElseThrow();
        return WildcardPattern.substitute(deploymentModel, segments, requested);
    }

    @Test
    void eachStarOfTheDeploymentTakesWhatTheSameStarOfThePatternMatched() {
        assertThat(served("openai/*", "openai/*", "openai/gpt-4o")).isEqualTo("openai/gpt-4o");
        assertThat(served("*", "openai/*", "gpt-4o")).isEqualTo("openai/gpt-4o");
        assertThat(served("my-prefix/*", "openai/*", "my-prefix/gpt-4o")).isEqualTo("openai/gpt-4o");
        assertThat(served("llm/fo::*::static::*", "openai/fo::*::static::*", "llm/fo::a::static::b"))
                .isEqualTo("openai/fo::a::static::b");
    }

    @Test
    void aModelWithoutStarIsAskedForAsWrittenAndOneWithTooFewStarsGetsTheRequestedName() {
        assertThat(served("team/*", "openai/gpt-4o", "team/anything")).isEqualTo("openai/gpt-4o");
        assertThat(served("*/*", "openai/*", "a/b")).isEqualTo("a/b");
    }

    @Test
    void aPatternMatchesFromTheStartOfTheNameOnly() {
        assertThat(WildcardPattern.of("openai/*").matches("openai/x")).isTrue();
        assertThat(WildcardPattern.of("openai/*").matches("azure/openai/x")).isFalse();
        assertThat(WildcardPattern.of("gpt.*").matches("gptx4")).isFalse(); // a dot is a dot, not any character
        assertThat(WildcardPattern.of("*-mini").matches("gpt-4o-mini")).isTrue();
    }

    @Test
    void theLongerPatternSortsFirst() {
        List<WildcardPattern> patterns = new java.util.ArrayList<>(List.of(WildcardPattern.of("*"),
                WildcardPattern.of("my-prefix/special/*"), WildcardPattern.of("openai/*")));
        patterns.sort(WildcardPattern.MOST_SPECIFIC_FIRST);

        assertThat(patterns).extracting(WildcardPattern::text).containsExactly("my-prefix/special/*", "openai/*", "*");
    }
}
