package dev.sluice.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The guardrail names that deployments list in {@code litellm_params.guardrails}, kept with
 * where each was written, and checked once {@code guardrails} has been read: a misspelt name
 * would otherwise leave a deployment without the guardrail its owner meant it to have.
 */
final class GuardrailReferences {
    private record Reference(ConfigNode node, String name) {}

    private final List<Reference> references = new ArrayList<>();

    void add(ConfigNode node, String name) {
        references.add(new Reference(node, name));
    }

    /** @param defined every {@code guardrail_name} that was read, even from an entry with other problems */
    void check(Set<String> defined, Problems problems) {
        String rule = defined.isEmpty()
                ? "a guardrail_name from guardrails; none are defined"
                : "a guardrail_name from guardrails: " + String.join(", ", new TreeSet<>(defined));
        for (Reference reference : references) {
            if (!defined.contains(reference.name())) {
                problems.add(reference.node(), ShownValue.text(reference.node().value()), rule);
            }
        }
    }
}
