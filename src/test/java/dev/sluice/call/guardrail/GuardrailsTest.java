package dev.sluice.call.guardrail;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.config.ConfigException;
import dev.sluice.config.ConfigLoader;
import dev.sluice.config.Deployment;
import dev.sluice.config.GuardrailMode;
import dev.sluice.config.SluiceConfig;
import dev.sluice.model.AnswerText;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Checking prompts and answers against guardrails read from a real config. */
class GuardrailsTest {
    /** "plain" lists no guardrails; "scoped" lists pii. */
    static final String CONFIG = """
            model_list:
              - model_name: plain
                litellm_params: {model: openai/gpt-4o}
              - model_name: scoped
                litellm_params: {model: openai/gpt-4o, guardrails: [pii]}
            guardrails:
              - guardrail_name: no-secrets
                litellm_params:
                  guardrail: litellm_content_filter
                  mode: pre_call
                  default_on: true
                  blocked_words: [password, "project apollo", api, "api key", "c++", "-secret", passwört]
                  patterns:
                    - {pattern_type: regex, pattern: 'AKIA[0-9A-Z]{16}', name: aws-key}
              - guardrail_name: pii
                litellm_params:
                  guardrail: litellm_content_filter
                  mode: [pre_call, post_call]
                  patterns:
                    - {pattern_type: prebuilt, pattern_name: us_ssn}
                    - {pattern_type: prebuilt, pattern_name: email, name: e-mail}
              - guardrail_name: answers
                litellm_params:
                  guardrail: litellm_content_filter
                  mode: post_call
                  default_on: true
                  blocked_words: [confidential]
              - guardrail_name: on-request
                litellm_params:
                  guardrail: litellm_content_filter
                  mode: [pre_call, post_call]
                  blocked_words: [banana]
            """;

    final SluiceConfig config = load(CONFIG);
    final Guardrails guardrails = Guardrails.of(config.guardrails());
    final Deployment plain = config.deployments().get(0);
    final Deployment scoped = config.deployments().get(1);

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "none", textBlock = """
            my password is hunter2            | blocked word 'password'
            MY PASSWORD                       | blocked word 'password'
            Password: x                       | blocked word 'password'
            (password)                        | blocked word 'password'
            passwords are long                | none
            1password is an app               | none
            my_password                       | none
            pass word                         | none
            the project apollo files          | blocked word 'project apollo'
            Project   Apollo                  | blocked word 'project apollo'
            projectapollo                     | none
            the api docs                      | blocked word 'api'
            my API KEY please                 | blocked word 'api key'
            rapid prototyping                 | none
            I write c++.                      | blocked word 'c++'
            I write cc++ code                 | none
            my-secret thing                   | blocked word '-secret'
            PASSWÖRT vergessen                | blocked word 'passwört'
            key AKIAABCDEFGHIJKLMNOP here     | pattern 'aws-key'
            key akiaabcdefghijklmnop here     | none
            nothing to see                    | none
            """)
    void matchesBlockedWordsOnWordBoundariesWithoutRegardToCaseAndPatternsAsWritten(String prompt, String reason) {
        Optional<GuardrailRefusal> refusal = guardrails.checkPrompt(plain, chat(prompt));

        assertThat(refusal.map(GuardrailRefusal::reason)).isEqualTo(Optional.ofNullable(reason));
        refusal.ifPresent(r -> {
            assertThat(r.guardrail()).isEqualTo("no-secrets");
            assertThat(r.mode()).isEqualTo(GuardrailMode.PRE_CALL);
        });
    }

    @Test
    void aRefusalNamesWhatMatchedButNeverRepeatsIt() {
        GuardrailRefusal refusal = guardrails.checkPrompt(plain, chat("use AKIAIOSFODNN7EXAMPLE for it")).orElseThrow();

        assertThat(refusal.reason()).isEqualTo("pattern 'aws-key'");
        assertThat(refusal.message())
                .isEqualTo("Guardrail 'no-secrets' (pre_call) refused the prompt: pattern 'aws-key'.")
                .doesNotContain("AKIAIOSFODNN7EXAMPLE");
    }

    @Test
    void checksEveryMessageAndEveryTextPart() {
        ObjectNode body = body("""
                {"model": "plain", "messages": [
                  {"role": "system", "content": "You are helpful."},
                  {"role": "assistant", "content": null},
                  {"role": "user", "content": [
                    {"type": "image_url", "image_url": {"url": "https://example.com/password.png"}},
                    {"type": "text", "text": "what is this"},
                    {"type": "text", "text": "my password"}]}]}
                """);

        assertThat(guardrails.checkPrompt(plain, body).map(GuardrailRefusal::reason)).contains("blocked word 'password'");
        assertThat(guardrails.checkPrompt(plain, body("""
                {"model": "plain", "messages": [{"role": "system", "content": "never say PASSWORD"}, {"role": "user", "content": "hi"}]}
                """))).isPresent();
    }

    @Test
    void wordsFromTwoMessagesDoNotRunTogether() {
        ObjectNode body = body("""
                {"model": "plain", "messages": [{"role": "user", "content": "project"}, {"role": "user", "content": "apollo"}]}
                """);

        assertThat(guardrails.checkPrompt(plain, body)).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "none", textBlock = """
            {"model": "plain", "prompt": "my password"}                       | blocked word 'password'
            {"model": "plain", "prompt": ["fine", "a password"]}              | blocked word 'password'
            {"model": "plain", "prompt": [[1, 2, 3], [4]]}                    | none
            {"model": "plain", "input": "embed my password"}                  | blocked word 'password'
            {"model": "plain", "input": ["one", "two", "PASSWORD"]}           | blocked word 'password'
            {"model": "plain", "input": [101, 202]}                           | none
            {"model": "plain", "input": "nothing here"}                       | none
            """)
    void checksCompletionPromptsAndEmbeddingInputs(String json, String reason) {
        assertThat(guardrails.checkPrompt(plain, body(json)).map(GuardrailRefusal::reason)).isEqualTo(Optional.ofNullable(reason));
    }

    @Test
    void aScopedGuardrailRunsOnlyForTheDeploymentsThatNameIt() {
        ObjectNode ssn = chat("my ssn is 123-45-6789");

        assertThat(guardrails.checkPrompt(plain, ssn)).isEmpty();
        assertThat(guardrails.checkPrompt(scoped, ssn)).contains(new GuardrailRefusal("pii", GuardrailMode.PRE_CALL, "pattern 'us_ssn'"));
        assertThat(guardrails.checkPrompt(scoped, chat("write to me@example.com")).map(GuardrailRefusal::reason))
                .contains("pattern 'e-mail'");
    }

    @Test
    void aDefaultOnGuardrailRunsAlongsideScopedOnesInConfigOrder() {
        ObjectNode both = chat("password 123-45-6789");

        assertThat(guardrails.checkPrompt(scoped, both).map(GuardrailRefusal::guardrail)).contains("no-secrets");
        assertThat(guardrails.checkPrompt(scoped, chat("password")).map(GuardrailRefusal::guardrail)).contains("no-secrets");
    }

    @Test
    void aGuardrailTheCallerAsksForRunsForThatCallOnly() {
        ObjectNode banana = chat("a banana");

        assertThat(guardrails.has("on-request")).isTrue();
        assertThat(guardrails.checkPrompt(plain, banana)).isEmpty();
        assertThat(guardrails.checkPrompt(plain, banana, List.of("on-request")).map(GuardrailRefusal::guardrail)).contains("on-request");
        assertThat(guardrails.checkAnswer(plain, "a banana", List.of("on-request")).map(GuardrailRefusal::mode))
                .contains(GuardrailMode.POST_CALL);
    }

    @Test
    void aNameThatIsNotConfiguredIsAWiringMistakeNotASkippedGuardrail() {
        assertThat(guardrails.has("pii-guard")).isFalse();
        assertThatThrownBy(() -> guardrails.checkPrompt(plain, chat("hi"), List.of("pii-guard")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("no guardrail named 'pii-guard' (named by the request); configured: no-secrets, pii, answers, on-request");
        assertThatThrownBy(() -> Guardrails.NONE.checkPrompt(scoped, chat("hi")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("no guardrail named 'pii' (named by deployment '" + scoped.id() + "')");
    }

    @Test
    void eachGuardrailRunsOnlyInItsModes() {
        assertThat(guardrails.checkAnswer(plain, "the password is x")).isEmpty(); // no-secrets is pre_call only
        assertThat(guardrails.checkPrompt(plain, chat("this is confidential"))).isEmpty(); // answers is post_call only
        assertThat(guardrails.checkAnswer(plain, "this is CONFIDENTIAL"))
                .contains(new GuardrailRefusal("answers", GuardrailMode.POST_CALL, "blocked word 'confidential'"));
        assertThat(guardrails.checkAnswer(scoped, "call 123-45-6789").map(GuardrailRefusal::guardrail)).contains("pii");
        assertThat(guardrails.checkAnswer(plain, "call 123-45-6789")).isEmpty();
        assertThat(guardrails.checkAnswer(plain, "all fine")).isEmpty();
    }

    @Test
    void saysWhetherAnswersNeedCollecting() throws ConfigException {
        SluiceConfig promptsOnly = load("""
                model_list:
                  - model_name: a
                    litellm_params: {model: openai/gpt-4o}
                guardrails:
                  - guardrail_name: words
                    litellm_params: {guardrail: litellm_content_filter, mode: pre_call, default_on: true, blocked_words: [x]}
                  - guardrail_name: later
                    litellm_params: {guardrail: litellm_content_filter, mode: post_call, blocked_words: [y]}
                """);
        Guardrails prompts = Guardrails.of(promptsOnly.guardrails());
        Deployment a = promptsOnly.deployments().getFirst();

        assertThat(prompts.checksPrompts(a)).isTrue();
        assertThat(prompts.checksAnswers(a)).isFalse();
        assertThat(prompts.checksAnswers(a, List.of("later"))).isTrue();
        assertThat(guardrails.checksAnswers(plain)).isTrue();
    }

    @Test
    void withNoGuardrailsNothingIsRefused() {
        SluiceConfig none = load("""
                model_list:
                  - model_name: a
                    litellm_params: {model: openai/gpt-4o}
                """);
        Deployment a = none.deployments().getFirst();

        assertThat(Guardrails.of(none.guardrails())).isSameAs(Guardrails.NONE);
        assertThat(Guardrails.NONE.names()).isEmpty();
        assertThat(Guardrails.NONE.checkPrompt(a, chat("password AKIAABCDEFGHIJKLMNOP"))).isEmpty();
        assertThat(Guardrails.NONE.checkAnswer(a, "password")).isEmpty();
        assertThat(Guardrails.NONE.checksPrompts(a)).isFalse();
        assertThat(Guardrails.NONE.checksAnswers(a)).isFalse();
        assertThat(guardrails.names()).containsExactly("no-secrets", "pii", "answers", "on-request");
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', textBlock = """
            us_ssn         | ssn 123-45-6789 ok                        | ssn 000-45-6789, 123-00-6789, 1234-45-6789
            email          | mail ada.lovelace+x@example.co.uk now     | mail ada at example dot com, user@localhost
            visa           | card 4111 1111 1111 1111 please           | card 4111 1111 1111 111
            mastercard     | card 5425-2334-3010-9903 please           | card 6011 0009 9013 9424
            amex           | card 3782 822463 10005 please             | card 3782 822463 1000
            aws_access_key | id ASIAY34FZKBOKMUTVV7A here              | id AKIAshort, XAKIAY34FZKBOKMUTVV7A
            github_token   | token ghp_abcdefghijklmnopqrstuvwxyz0123456789 | token ghp_short, ghx_abcdefghijklmnopqrstuvwxyz0123456789
            """)
    void prebuiltPatternsMatchTheirFormatOnly(String prebuilt, String matching, String notMatching) {
        SluiceConfig one = load("""
                model_list:
                  - model_name: a
                    litellm_params: {model: openai/gpt-4o}
                guardrails:
                  - guardrail_name: p
                    litellm_params:
                      guardrail: litellm_content_filter
                      mode: pre_call
                      default_on: true
                      patterns: [{pattern_type: prebuilt, pattern_name: %s}]
                """.formatted(prebuilt));
        Guardrails prebuilts = Guardrails.of(one.guardrails());
        Deployment a = one.deployments().getFirst();

        assertThat(prebuilts.checkPrompt(a, chat(matching)).map(GuardrailRefusal::reason)).contains("pattern '" + prebuilt + "'");
        assertThat(prebuilts.checkPrompt(a, chat(notMatching))).isEmpty();
    }

    @Test
    void aStreamedAnswerIsCheckedWholeSoAWordSplitAcrossChunksIsCaught() {
        List<String> events = List.of(
                "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}\n\n",
                "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"This is confi\"}}]}\n\n",
                "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"dential.\"}}]}\n\ndata: [DONE]\n\n");

        assertThat(guardrails.checkAnswer(plain, AnswerText.ofEvents(events)).map(GuardrailRefusal::guardrail)).contains("answers");
    }

    private static ObjectNode chat(String content) {
        ObjectNode body = Json.MAPPER.createObjectNode().put("model", "plain");
        body.putArray("messages").addObject().put("role", "user").put("content", content);
        return body;
    }

    private static ObjectNode body(String json) {
        try {
            return (ObjectNode) Json.parse(json.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static SluiceConfig load(String yaml) {
        try {
            return ConfigLoader.parse(yaml, Map.of(), Set.of("openai"));
        } catch (ConfigException e) {
            throw new AssertionError(e.problems().toString(), e);
        }
    }
}
