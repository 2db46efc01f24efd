package dev.sluice.config;

/**
 * One entry of {@code model_list}: a concrete upstream model that serves a model group.
 *
 * @param id        {@code model_info.id}, or a stable id derived from the entry's raw params
 * @param modelName the model group callers name in {@code "model"}
 */
public record Deployment(String id, String modelName, LitellmParams params, ModelInfo info) {}
