package dev.sluice.config;

/**
 * One entry of {@code model_list}: a concrete upstream model that serves a model group.
 *
 * @param id        {@code model_info.id}, or a stable id derived from the entry's raw params
 * @param modelName the model group callers name in {@code "model"}
 * @param ambient   what it may draw on besides what it writes out: everything for the config
 *                  file's, what {@code general_settings} lends for one given through the model API
 */
public record Deployment(String id, String modelName, LitellmParams params, ModelInfo info, AmbientCredentials ambient) {

    /** A deployment of the operator's (the config file's), which draws on every ambient credential. */
    public Deployment(String id, String modelName, LitellmParams params, ModelInfo info) {
        this(id, modelName, params, info, AmbientCredentials.OPERATOR);
    }

    /** The same deployment with {@code model} as its {@code model_info.base_model}: priced and sized as that model. */
    public Deployment withBaseModel(String model) {
        return new Deployment(id, modelName, params, info.withBaseModel(model), ambient);
    }

    /** The same deployment asking its upstream for {@code model} ({@code provider/name}); its id and group stay. */
    public Deployment withModel(String model) {
        return new Deployment(id, modelName, params.withModel(model), info, ambient);
    }

    /** The same deployment drawing only on {@code lent} besides what it writes out. */
    public Deployment withAmbient(AmbientCredentials lent) {
        return new Deployment(id, modelName, params, info, lent);
    }
}
