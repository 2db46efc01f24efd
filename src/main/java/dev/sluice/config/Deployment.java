package dev.sluice.config;

/**
 * One entry of {@code model_list}: a concrete upstream model that serves a model group.
 *
 * @param id        {@code model_info.id}, or a stable id derived from the entry's raw params
 * @param modelName the model group callers name in {@code "model"}
 */
public record Deployment(String id, String modelName, LitellmParams params, ModelInfo info) {

    /** The same deployment with {@code model} as its {@code model_info.base_model}: priced and sized as that model. */
    public Deployment withBaseModel(String model) {
        return new Deployment(id, modelName, params, info.withBaseModel(model));
    }

    /** The same deployment asking its upstream for {@code model} ({@code provider/name}); its id and group stay. */
    public Deployment withModel(String model) {
        return new Deployment(id, modelName, params.withModel(model), info);
    }
}
