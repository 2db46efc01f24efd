package dev.sluice.store;

import java.time.Instant;
import java.util.Objects;

/**
 * A deployment added through the model API, as stored.
 *
 * @param entry     its {@code model_list} entry as JSON, as the API received it
 * @param updatedAt when it was added or last changed
 */
public record StoredModel(String modelId, String modelName, String entry, Instant createdAt, Instant updatedAt) {
    public StoredModel {
        Objects.requireNonNull(modelId, "modelId");
        Objects.requireNonNull(modelName, "modelName");
        Objects.requireNonNull(entry, "entry");
        createdAt = Columns.micros(Objects.requireNonNull(createdAt, "createdAt"));
        updatedAt = Columns.micros(Objects.requireNonNull(updatedAt, "updatedAt"));
    }
}
