package dev.sluice.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Reads one deployment's {@code model_info}. */
final class ModelInfoParser {
    private final FieldReader read;
    private final IgnoredKeys ignored;

    ModelInfoParser(FieldReader read, IgnoredKeys ignored) {
        this.read = read;
        this.ignored = ignored;
    }

    ModelInfo parse(ConfigNode node) {
        if (node.isAbsent()) {
            return ModelInfo.EMPTY;
        }
        Section info = Section.open(node, ignored, read.problems(), "a map");
        ModelInfo parsed = new ModelInfo(
                read.string(info.take("id")),
                read.positiveInt(info.take("max_input_tokens")),
                read.positiveInt(info.take("max_output_tokens")),
                RouterVocabulary.unchecked().allowedFailsPolicy(read.written(info.take("allowed_fails_policy"))),
                read.nonNegativeSeconds(info.take("cooldown_time")),
                mode(info.take("mode")),
                read.string(info.take("base_model")),
                read.nonNegativeNumber(info.take("input_cost_per_token")),
                read.nonNegativeNumber(info.take("output_cost_per_token")),
                read.strings(info.take("access_groups")).map(ModelInfoParser::distinct).orElse(List.of()),
                written(info.node()));
        info.finish();
        return parsed;
    }

    /**
     * Every field as written, for {@code /model/info}, copied out of the config's tree; an
     * {@code os.environ/NAME} stays as written, never resolved.
     */
    private static Map<String, JsonNode> written(ConfigNode node) {
        Map<String, JsonNode> written = new LinkedHashMap<>();
        node.entries().forEach(entry -> written.put(entry.getKey(), entry.getValue().value().deepCopy()));
        return written;
    }

    private static List<String> distinct(List<String> names) {
        return List.copyOf(new LinkedHashSet<>(names));
    }

    /** One of the modes Sluice acts on; LiteLLM's others are read and listed as not acted on. */
    private Optional<ModelMode> mode(ConfigNode node) {
        Optional<String> written = read.string(node);
        Optional<ModelMode> mode = written.flatMap(ModelMode::fromConfigName);
        if (written.isPresent() && mode.isEmpty()) {
            ignored.notActedOn(node);
        }
        return mode;
    }
}
