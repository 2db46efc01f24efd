package dev.sluice.config;

import java.util.Optional;

/** Reads one entry of {@code model_list}; its id is settled later by {@link DeploymentIds}. */
record DeploymentParser(FieldReader read, IgnoredKeys ignored, LitellmParamsParser params, ModelInfoParser info) {

    /**
     * An entry as far as it could be read.
     *
     * @param node      the entry as written, from which an id is derived
     * @param modelName empty when missing or wrong
     * @param params    empty when missing or not a map
     */
    record Entry(ConfigNode node, Optional<String> modelName, Optional<LitellmParams> params, ModelInfo info) {}

    Entry parse(ConfigNode node) {
        String expected = "a map with model_name and litellm_params";
        if (!node.isMap()) {
            if (node.isAbsent()) {
                read.problems().missing(node, expected);
            } else {
                read.problems().add(node, ShownValue.of(node.value(), false), expected);
            }
            return new Entry(node, Optional.empty(), Optional.empty(), ModelInfo.EMPTY);
        }
        Section entry = Section.open(node, ignored, read.problems(), expected);
        Optional<String> modelName = read.requiredString(entry.take("model_name"));
        Optional<LitellmParams> litellmParams = litellmParams(entry.take("litellm_params"));
        ModelInfo modelInfo = info.parse(entry.take("model_info"));
        entry.finish();
        return new Entry(node, modelName, litellmParams, modelInfo);
    }

    private Optional<LitellmParams> litellmParams(ConfigNode node) {
        String expected = "a map with at least model";
        if (node.isAbsent()) {
            read.problems().missing(node, expected);
            return Optional.empty();
        }
        if (!node.isMap()) {
            read.problems().add(node, ShownValue.of(node.value(), false), expected);
            return Optional.empty();
        }
        return Optional.of(params.parse(node));
    }
}
