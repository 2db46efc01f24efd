package dev.sluice.vendors.openai.responses;

/**
 * What a response object says of itself that the answer does not: its id, when it was
 * created and the model it names. Output item ids are derived from {@code id}, so a stream
 * and the response object written for the same answer name their items alike.
 *
 * @param id        the response's id, {@code resp_...}
 * @param createdAt its Unix time in seconds
 * @param model     the model the response names
 */
public record ResponseMeta(String id, long createdAt, String model) {
    public ResponseMeta {
        if (id == null || !id.startsWith("resp_") || id.length() == "resp_".length()) {
            throw new IllegalArgumentException("id: " + id + " (expected: resp_ followed by an id)");
        }
        if (createdAt < 0) {
            throw new IllegalArgumentException("createdAt: " + createdAt + " (expected: >= 0)");
        }
        if (model == null || model.isBlank()) {
            throw new IllegalArgumentException("model: " + model + " (expected: a non-blank string)");
        }
    }

    /** The id of the output item at {@code outputIndex}: {@code prefix} ({@code msg}, {@code rs}, {@code fc}), then this response's. */
    String itemId(String prefix, int outputIndex) {
        return prefix + "_" + id.substring("resp_".length()) + "_" + outputIndex;
    }
}
