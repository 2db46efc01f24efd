package dev.sluice.call.guardrail;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.config.Deployment;
import dev.sluice.config.GuardrailConfig;
import dev.sluice.config.GuardrailMode;
import dev.sluice.model.AnswerText;
import dev.sluice.model.PromptText;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The guardrails of a config, ready to check calls. A call is checked by every guardrail
 * that is {@code default_on}, that its deployment lists in {@code litellm_params.guardrails},
 * or that the caller asked for by name, in the order the config lists them; the first that
 * matches refuses the call.
 *
 * <p>Immutable and safe to share between threads. With no guardrails configured,
 * {@link #NONE} answers every check at once with "no refusal".
 */
public final class Guardrails {
    public static final Guardrails NONE = new Guardrails(List.of());

    private final List<ContentFilter> filters;
    private final Map<String, ContentFilter> byName;

    private Guardrails(List<ContentFilter> filters) {
        this.filters = filters;
        Map<String, ContentFilter> names = new LinkedHashMap<>();
        filters.forEach(filter -> names.put(filter.name(), filter));
        this.byName = Collections.unmodifiableMap(names);
    }

    /** The guardrails of a checked config, each compiled once; {@link #NONE} when there are none. */
    public static Guardrails of(List<GuardrailConfig> configs) {
        if (configs.isEmpty()) {
            return NONE;
        }
        return new Guardrails(configs.stream().map(ContentFilter::new).toList());
    }

    /** Whether a guardrail of this name is configured, e.g. to check a caller's {@code guardrails} field. */
    public boolean has(String name) {
        return byName.containsKey(name);
    }

    /** Every configured {@code guardrail_name}, in config order. */
    public Set<String> names() {
        return byName.keySet();
    }

    /** Whether any guardrail checks prompts sent to this deployment when the caller names none. */
    public boolean checksPrompts(Deployment deployment) {
        return checksPrompts(deployment, List.of());
    }

    /** Whether any guardrail checks answers from this deployment when the caller names none. */
    public boolean checksAnswers(Deployment deployment) {
        return checksAnswers(deployment, List.of());
    }

    /** Whether any guardrail checks prompts sent to this deployment. */
    public boolean checksPrompts(Deployment deployment, Collection<String> requested) {
        return !applicable(deployment, requested, GuardrailMode.PRE_CALL).isEmpty();
    }

    /**
     * Whether any guardrail checks answers from this deployment; when none does, a streamed
     * answer need not be collected.
     */
    public boolean checksAnswers(Deployment deployment, Collection<String> requested) {
        return !applicable(deployment, requested, GuardrailMode.POST_CALL).isEmpty();
    }

    /** {@link #checkPrompt(Deployment, ObjectNode, Collection)} with no guardrails asked for by the caller. */
    public Optional<GuardrailRefusal> checkPrompt(Deployment deployment, ObjectNode requestBody) {
        return checkPrompt(deployment, requestBody, List.of());
    }

    /**
     * The refusal of the first {@code pre_call} guardrail whose words or patterns occur in
     * the request's messages, prompt or input; empty when none does.
     *
     * @param requested guardrail names the caller asked for; each must be configured ({@link #has})
     */
    public Optional<GuardrailRefusal> checkPrompt(Deployment deployment, ObjectNode requestBody, Collection<String> requested) {
        return check(deployment, requested, GuardrailMode.PRE_CALL, () -> PromptText.of(requestBody));
    }

    /** {@link #checkAnswer(Deployment, String, Collection)} with no guardrails asked for by the caller. */
    public Optional<GuardrailRefusal> checkAnswer(Deployment deployment, String answerText) {
        return checkAnswer(deployment, answerText, List.of());
    }

    /**
     * The refusal of the first {@code post_call} guardrail whose words or patterns occur in
     * the answer ({@link AnswerText} extracts it); empty when none does.
     *
     * @param requested guardrail names the caller asked for; each must be configured ({@link #has})
     */
    public Optional<GuardrailRefusal> checkAnswer(Deployment deployment, String answerText, Collection<String> requested) {
        return check(deployment, requested, GuardrailMode.POST_CALL, () -> List.of(answerText));
    }

    /** The texts are only extracted when a guardrail of this mode applies to the deployment. */
    private Optional<GuardrailRefusal> check(Deployment deployment, Collection<String> requested, GuardrailMode mode,
            Supplier<List<String>> texts) {
        List<ContentFilter> applicable = applicable(deployment, requested, mode);
        if (applicable.isEmpty()) {
            return Optional.empty();
        }
        return check(applicable, texts.get(), mode);
    }

    private static Optional<GuardrailRefusal> check(List<ContentFilter> applicable, List<String> texts, GuardrailMode mode) {
        for (ContentFilter filter : applicable) {
            for (String text : texts) {
                Optional<String> reason = filter.match(text);
                if (reason.isPresent()) {
                    return Optional.of(new GuardrailRefusal(filter.name(), mode, reason.get()));
                }
            }
        }
        return Optional.empty();
    }

    /**
     * The guardrails that run on {@code mode} for this call, in config order. A name that is
     * not configured is a wiring mistake (the config checks deployments' names, the caller's
     * must be checked with {@link #has}), refused loudly rather than skipped.
     */
    private List<ContentFilter> applicable(Deployment deployment, Collection<String> requested, GuardrailMode mode) {
        List<String> listed = deployment.params().guardrails();
        requireKnown(listed, "deployment '" + deployment.id() + "'");
        requireKnown(requested, "the request");
        if (filters.isEmpty()) {
            return List.of();
        }
        List<ContentFilter> applicable = new ArrayList<>();
        for (ContentFilter filter : filters) {
            boolean applies = filter.defaultOn() || listed.contains(filter.name()) || requested.contains(filter.name());
            if (applies && filter.runsOn(mode)) {
                applicable.add(filter);
            }
        }
        return applicable;
    }

    private void requireKnown(Collection<String> names, String where) {
        for (String name : names) {
            if (!byName.containsKey(name)) {
                throw new IllegalArgumentException("no guardrail named '" + name + "' (named by " + where
                        + "); configured: " + String.join(", ", byName.keySet()));
            }
        }
    }
}
