package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.GuardrailConfig.ContentPattern;
import dev.sluice.testing.Configs;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The top-level guardrails list, and deployments naming guardrails in litellm_params. */
class GuardrailsConfigTest {
    static final String PREBUILT = "us_ssn, email, visa, mastercard, amex, aws_access_key, github_token";

    /** One guardrail named no-secrets whose litellm_params are {@code params}, in flow style. */
    static String guardrail(String params) {
        return Configs.withSection("""
                guardrails:
                  - guardrail_name: no-secrets
                    litellm_params: %s
                """.formatted(params));
    }

    @Test
    void readsGuardrailsInLiteLlmsShape() throws ConfigException {
        SluiceConfig config = Configs.parse("""
                model_list:
                  - model_name: gpt-4o
                    litellm_params:
                      model: openai/gpt-4o
                      guardrails: [pii, no-secrets, pii]
                  - model_name: gpt-4o-mini
                    litellm_params:
                      model: openai/gpt-4o-mini
                guardrails:
                  - guardrail_name: no-secrets
                    litellm_params:
                      guardrail: litellm_content_filter
                      mode: pre_call
                      default_on: true
                      blocked_words:
                        - password
                        - keyword: "  internal only "
                          action: BLOCK
                          description: confidential material
                      patterns:
                        - pattern_type: regex
                          pattern: 'AKIA[0-9A-Z]{16}'
                          name: aws-key
                          action: BLOCK
                        - pattern_type: regex
                          pattern: 'PROJECT-\\d{6}'
                        - pattern_type: prebuilt
                          pattern_name: us_ssn
                          action: BLOCK
                  - guardrail_name: pii
                    litellm_params:
                      guardrail: litellm_content_filter
                      mode: [post_call, pre_call]
                      patterns:
                        - {pattern_type: prebuilt, pattern_name: email, name: e-mail}
                """);

        assertThat(config.guardrails()).extracting(GuardrailConfig::name).containsExactly("no-secrets", "pii");
        GuardrailConfig noSecrets = config.guardrails().getFirst();
        assertThat(noSecrets.type()).isEqualTo("litellm_content_filter");
        assertThat(noSecrets.modes()).containsExactly(GuardrailMode.PRE_CALL);
        assertThat(noSecrets.defaultOn()).isTrue();
        assertThat(noSecrets.blockedWords()).containsExactly("password", "internal only");
        assertThat(noSecrets.patterns()).containsExactly(
                new ContentPattern("aws-key", "regex", "AKIA[0-9A-Z]{16}"),
                new ContentPattern("patterns[1]", "regex", "PROJECT-\\d{6}"),
                new ContentPattern("us_ssn", "prebuilt", PrebuiltPatterns.regex("us_ssn").orElseThrow()));

        GuardrailConfig pii = config.guardrails().get(1);
        assertThat(pii.modes()).containsExactly(GuardrailMode.PRE_CALL, GuardrailMode.POST_CALL);
        assertThat(pii.runsOn(GuardrailMode.POST_CALL)).isTrue();
        assertThat(pii.defaultOn()).isFalse();
        assertThat(pii.blockedWords()).isEmpty();
        assertThat(pii.patterns()).extracting(ContentPattern::name).containsExactly("e-mail");

        assertThat(config.deployments().get(0).params().guardrails()).containsExactly("pii", "no-secrets");
        assertThat(config.deployments().get(1).params().guardrails()).isEmpty();
        assertThat(config.ignoredKeys()).isEmpty();
    }

    @Test
    void noGuardrailsSectionMeansNoGuardrails() throws ConfigException {
        SluiceConfig config = Configs.parse(Configs.withSection(""));

        assertThat(config.guardrails()).isEmpty();
        assertThat(config.deployments()).allSatisfy(d -> assertThat(d.params().guardrails()).isEmpty());
    }

    @Test
    void everyPrebuiltPatternCompilesAndIsNamedInTheRule() {
        for (String name : PREBUILT.split(", ")) {
            assertThat(PrebuiltPatterns.regex(name)).as(name).isPresent();
            assertThat(new ContentPattern(name, "prebuilt", PrebuiltPatterns.regex(name).orElseThrow()).compile()).isNotNull();
        }
        assertThat(PrebuiltPatterns.names()).isEqualTo(PREBUILT);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "accepted", textBlock = """
            {guardrail: litellm_content_filter, mode: pre_call, blocked_words: [x]}             | accepted
            {guardrail: litellm_content_filter, mode: post_call, patterns: [{pattern_type: regex, pattern: x}]} | accepted
            {guardrail: litellm_content_filter, mode: [pre_call, post_call, pre_call], blocked_words: [x]} | accepted
            {guardrail: aporia, mode: pre_call, api_key: k}                                    | guardrails[0].litellm_params.guardrail: aporia (expected: a guardrail type Sluice supports: litellm_content_filter)
            {guardrail: presidio, mode: pre_call, pii_entities_config: {EMAIL_ADDRESS: MASK}}   | guardrails[0].litellm_params.guardrail: presidio (expected: a guardrail type Sluice supports: litellm_content_filter)
            {mode: pre_call, blocked_words: [x]}                                               | guardrails[0].litellm_params.guardrail: missing (expected: a guardrail type Sluice supports: litellm_content_filter)
            {guardrail: litellm_content_filter, blocked_words: [x]}                            | guardrails[0].litellm_params.mode: missing (expected: pre_call, post_call or a list of them)
            {guardrail: litellm_content_filter, mode: before, blocked_words: [x]}              | guardrails[0].litellm_params.mode: before (expected: pre_call, post_call or a list of them)
            {guardrail: litellm_content_filter, mode: during_call, blocked_words: [x]}         | guardrails[0].litellm_params.mode: during_call (expected: pre_call or post_call; Sluice has no during_call: pre_call checks the prompt before the call, post_call the answer after it)
            {guardrail: litellm_content_filter, mode: [pre_call, logging_only], blocked_words: [x]} | guardrails[0].litellm_params.mode[1]: logging_only (expected: pre_call or post_call; Sluice has no logging_only: it does not log prompts or answers)
            {guardrail: litellm_content_filter, mode: [pre_call, sometimes], blocked_words: [x]} | guardrails[0].litellm_params.mode[1]: sometimes (expected: pre_call or post_call)
            {guardrail: litellm_content_filter, mode: [], blocked_words: [x]}                  | guardrails[0].litellm_params.mode: an empty list (expected: pre_call, post_call or a list of them)
            {guardrail: litellm_content_filter, mode: {default: pre_call}, blocked_words: [x]} | guardrails[0].litellm_params.mode: a map (expected: pre_call, post_call or a list of them)
            {guardrail: litellm_content_filter, mode: pre_call, default_on: maybe, blocked_words: [x]} | guardrails[0].litellm_params.default_on: "maybe" (expected: true or false)
            {guardrail: litellm_content_filter, mode: pre_call}                                | guardrails[0].litellm_params: a map (expected: blocked_words or patterns with at least one entry)
            {guardrail: litellm_content_filter, mode: pre_call, blocked_words: [], patterns: []} | guardrails[0].litellm_params: a map (expected: blocked_words or patterns with at least one entry)
            {guardrail: litellm_content_filter, mode: pre_call, blocked_words: password}      | guardrails[0].litellm_params.blocked_words: "password" (expected: a list of keywords)
            {guardrail: litellm_content_filter, mode: pre_call, blocked_words: [""]}          | guardrails[0].litellm_params.blocked_words[0]: "" (expected: a non-empty string)
            {guardrail: litellm_content_filter, mode: pre_call, blocked_words: ["   "]}       | guardrails[0].litellm_params.blocked_words[0]: "   " (expected: a keyword that is not only spaces)
            {guardrail: litellm_content_filter, mode: pre_call, blocked_words: [[a]]}         | guardrails[0].litellm_params.blocked_words[0]: a list (expected: a keyword, or a map with keyword and action)
            {guardrail: litellm_content_filter, mode: pre_call, blocked_words: [~]}           | guardrails[0].litellm_params.blocked_words[0]: null (expected: a keyword, or a map with keyword and action)
            {guardrail: litellm_content_filter, mode: pre_call, blocked_words: [{action: BLOCK}]} | guardrails[0].litellm_params.blocked_words[0].keyword: missing (expected: a non-empty string)
            {guardrail: litellm_content_filter, mode: pre_call, blocked_words: [{keyword: x, action: MASK}]} | guardrails[0].litellm_params.blocked_words[0].action: MASK (expected: BLOCK; Sluice refuses a call that matches and does not mask)
            {guardrail: litellm_content_filter, mode: pre_call, blocked_words: [{keyword: x, action: ALLOW}]} | guardrails[0].litellm_params.blocked_words[0].action: ALLOW (expected: BLOCK)
            {guardrail: litellm_content_filter, mode: pre_call, blocked_words: [{keyword: x, action: block}]} | accepted
            {guardrail: litellm_content_filter, mode: pre_call, patterns: [{pattern_type: regex, pattern: "[a-"}]} | guardrails[0].litellm_params.patterns[0].pattern: [a- (expected: a valid regular expression (Illegal character range at index 3))
            {guardrail: litellm_content_filter, mode: pre_call, patterns: [{pattern_type: regex, pattern: "(x"}]} | guardrails[0].litellm_params.patterns[0].pattern: (x (expected: a valid regular expression (Unclosed group at index 2))
            {guardrail: litellm_content_filter, mode: pre_call, patterns: [{pattern_type: regex, pattern: "a*"}]} | guardrails[0].litellm_params.patterns[0].pattern: a* (expected: a regular expression that does not match empty text)
            {guardrail: litellm_content_filter, mode: pre_call, patterns: [{pattern_type: regex}]} | guardrails[0].litellm_params.patterns[0].pattern: missing (expected: a regular expression)
            {guardrail: litellm_content_filter, mode: pre_call, patterns: [{pattern: x}]}     | guardrails[0].litellm_params.patterns[0].pattern_type: missing (expected: one of regex, prebuilt)
            {guardrail: litellm_content_filter, mode: pre_call, patterns: [{pattern_type: custom, pattern: x}]} | guardrails[0].litellm_params.patterns[0].pattern_type: custom (expected: one of regex, prebuilt)
            {guardrail: litellm_content_filter, mode: pre_call, patterns: [{pattern_type: prebuilt, pattern_name: phone}]} | guardrails[0].litellm_params.patterns[0].pattern_name: phone (expected: a prebuilt pattern Sluice has: us_ssn, email, visa, mastercard, amex, aws_access_key, github_token)
            {guardrail: litellm_content_filter, mode: pre_call, patterns: [{pattern_type: prebuilt}]} | guardrails[0].litellm_params.patterns[0].pattern_name: missing (expected: a prebuilt pattern Sluice has: us_ssn, email, visa, mastercard, amex, aws_access_key, github_token)
            {guardrail: litellm_content_filter, mode: pre_call, patterns: [{pattern_type: regex, pattern: x, action: MASK}]} | guardrails[0].litellm_params.patterns[0].action: MASK (expected: BLOCK; Sluice refuses a call that matches and does not mask)
            {guardrail: litellm_content_filter, mode: pre_call, patterns: [x]}                | guardrails[0].litellm_params.patterns[0]: "x" (expected: a map with pattern_type and pattern (regex) or pattern_name (prebuilt))
            {guardrail: litellm_content_filter, mode: pre_call, patterns: {a: b}}             | guardrails[0].litellm_params.patterns: a map (expected: a list of patterns, each a map with pattern_type and pattern (regex) or pattern_name (prebuilt))
            {guardrail: litellm_content_filter, mode: pre_call, blocked_words_file: /etc/words.yaml} | guardrails[0].litellm_params.blocked_words_file: "/etc/words.yaml" (expected: blocked_words instead; Sluice does not read keyword files)
            """)
    void checksEachGuardrailParam(String params, String problem) {
        String yaml = guardrail(params);
        if (problem == null) {
            assertThat(Configs.problemsOrNone(yaml)).isEmpty();
        } else {
            assertThat(Configs.problems(yaml)).containsExactly(problem);
        }
    }

    @Test
    void refusesCategoriesRatherThanRunningWithoutThem() {
        assertThat(Configs.problems(guardrail("""
                {guardrail: litellm_content_filter, mode: pre_call, blocked_words: [x],
                 categories: [{category: harmful_violence, enabled: true, action: BLOCK}]}"""))).containsExactly(
                "guardrails[0].litellm_params.categories: a list (expected: blocked_words or patterns instead; Sluice has no built-in categories)");
    }

    @Test
    void anUnsupportedTypeIsReportedTogetherWithEveryOtherProblem() {
        assertThat(Configs.problems(Configs.withSection("""
                guardrails:
                  - guardrail_name: lakera-guard
                    litellm_params:
                      guardrail: lakera
                      mode: during_call
                      api_key: os.environ/LAKERA_API_KEY
                  - guardrail_name: words
                    litellm_params:
                      guardrail: litellm_content_filter
                      mode: pre_call
                      patterns:
                        - {pattern_type: regex, pattern: "sk-[", name: openai-key}
                """))).containsExactly(
                "guardrails[0].litellm_params.guardrail: lakera (expected: a guardrail type Sluice supports: litellm_content_filter)",
                "guardrails[0].litellm_params.mode: during_call (expected: pre_call or post_call; Sluice has no during_call:"
                        + " pre_call checks the prompt before the call, post_call the answer after it)",
                "guardrails[1].litellm_params.patterns[0].pattern: sk-[ (expected: a valid regular expression (Unclosed character class at index 3))");
    }

    @Test
    void checksTheShapeOfTheListAndItsEntries() {
        assertThat(Configs.problems(Configs.withSection("guardrails: {no-secrets: {}}"))).containsExactly(
                "guardrails: a map (expected: a list of guardrails, each a map with guardrail_name and litellm_params)");
        assertThat(Configs.problems(Configs.withSection("""
                guardrails:
                  - no-secrets
                  - litellm_params: {guardrail: litellm_content_filter, mode: pre_call, blocked_words: [x]}
                  - guardrail_name: g
                  - guardrail_name: h
                    litellm_params: [guardrail]
                """))).containsExactly(
                "guardrails[0]: \"no-secrets\" (expected: a map with guardrail_name and litellm_params)",
                "guardrails[1].guardrail_name: missing (expected: a non-empty string)",
                "guardrails[2].litellm_params: missing (expected: a map with at least guardrail and mode)",
                "guardrails[3].litellm_params: a list (expected: a map with at least guardrail and mode)");
    }

    @Test
    void aGuardrailNameIsUsedOnce() {
        assertThat(Configs.problems(Configs.withSection("""
                guardrails:
                  - guardrail_name: words
                    litellm_params: {guardrail: litellm_content_filter, mode: pre_call, blocked_words: [x]}
                  - guardrail_name: other
                    litellm_params: {guardrail: litellm_content_filter, mode: pre_call, blocked_words: [y]}
                  - guardrail_name: words
                    litellm_params: {guardrail: litellm_content_filter, mode: post_call, blocked_words: [z]}
                """))).containsExactly("guardrails[2].guardrail_name: words (expected: a name not already used by guardrails[0])");
    }

    @Test
    void aDeploymentMayNameOnlyDefinedGuardrails() {
        assertThat(Configs.problems("""
                model_list:
                  - model_name: gpt-4o
                    litellm_params:
                      model: openai/gpt-4o
                      guardrails: [pii, no-secret]
                  - model_name: gpt-4o-mini
                    litellm_params:
                      model: openai/gpt-4o-mini
                      guardrails: [words]
                guardrails:
                  - guardrail_name: pii
                    litellm_params: {guardrail: litellm_content_filter, mode: pre_call, patterns: [{pattern_type: prebuilt, pattern_name: email}]}
                  - guardrail_name: no-secrets
                    litellm_params: {guardrail: litellm_content_filter, mode: pre_call, blocked_words: [password]}
                """)).containsExactly(
                "model_list[0].litellm_params.guardrails[1]: no-secret (expected: a guardrail_name from guardrails: no-secrets, pii)",
                "model_list[1].litellm_params.guardrails[0]: words (expected: a guardrail_name from guardrails: no-secrets, pii)");
    }

    @Test
    void aDeploymentNamingAGuardrailWhenNoneAreDefinedIsAProblem() {
        assertThat(Configs.problems(Configs.withParam("guardrails: [pii]"))).containsExactly(
                "model_list[0].litellm_params.guardrails[0]: pii (expected: a guardrail_name from guardrails; none are defined)");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            guardrails: pii       | model_list[0].litellm_params.guardrails: "pii" (expected: a list of guardrail names)
            guardrails: {pii: 1}  | model_list[0].litellm_params.guardrails: a map (expected: a list of guardrail names)
            guardrails: [~]       | model_list[0].litellm_params.guardrails[0]: missing (expected: a guardrail_name from guardrails)
            guardrails: [""]      | model_list[0].litellm_params.guardrails[0]: "" (expected: a non-empty string)
            """)
    void checksTheShapeOfADeploymentsGuardrails(String param, String problem) {
        assertThat(Configs.problems(Configs.withParam(param))).containsExactly(problem);
    }

    @Test
    void aNameWhoseEntryHasAProblemIsStillKnownToDeployments() {
        assertThat(Configs.problems("""
                model_list:
                  - model_name: gpt-4o
                    litellm_params: {model: openai/gpt-4o, guardrails: [pii]}
                guardrails:
                  - guardrail_name: pii
                    litellm_params: {guardrail: presidio, mode: pre_call}
                """)).containsExactly(
                "guardrails[0].litellm_params.guardrail: presidio (expected: a guardrail type Sluice supports: litellm_content_filter)");
    }

    @Test
    void namesAreNotCheckedAgainstAGuardrailsSectionThatCannotBeRead() {
        assertThat(Configs.problems("""
                model_list:
                  - model_name: gpt-4o
                    litellm_params: {model: openai/gpt-4o, guardrails: [pii]}
                guardrails: pii
                """)).containsExactly(
                "guardrails: \"pii\" (expected: a list of guardrails, each a map with guardrail_name and litellm_params)");
    }

    @Test
    void keysSluiceDoesNotReadAreListedNotDropped() throws ConfigException {
        SluiceConfig config = Configs.parse(Configs.withSection("""
                guardrails:
                  - guardrail_name: words
                    litellm_params:
                      guardrail: litellm_content_filter
                      mode: pre_call
                      blocked_words: [x]
                      keyword_redaction_tag: "[REDACTED]"
                      patterns:
                        - {pattern_type: regex, pattern: "y+", pattern_name: us_ssn}
                        - {pattern_type: prebuilt, pattern_name: email, pattern: "z+"}
                    guardrail_info:
                      params: [{name: toxicity_score, type: float}]
                """));

        assertThat(config.ignoredKeys()).containsExactly(
                "guardrails[0].litellm_params.keyword_redaction_tag",
                "guardrails[0].litellm_params.patterns[0].pattern_name",
                "guardrails[0].litellm_params.patterns[1].pattern",
                "guardrails[0].guardrail_info");
    }

    @Test
    void readsNamesAndWordsFromTheEnvironment() throws ConfigException {
        SluiceConfig config = Configs.parse(Configs.withSection("""
                guardrails:
                  - guardrail_name: words
                    litellm_params:
                      guardrail: litellm_content_filter
                      mode: os.environ/GUARD_MODE
                      default_on: os.environ/GUARD_ON
                      blocked_words: [os.environ/GUARD_WORD]
                """), java.util.Map.of("GUARD_MODE", "post_call", "GUARD_ON", "true", "GUARD_WORD", "project apollo"));

        GuardrailConfig words = config.guardrails().getFirst();
        assertThat(words.modes()).isEqualTo(Set.of(GuardrailMode.POST_CALL));
        assertThat(words.defaultOn()).isTrue();
        assertThat(words.blockedWords()).isEqualTo(List.of("project apollo"));
    }
}
