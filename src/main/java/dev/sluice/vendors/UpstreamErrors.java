package dev.sluice.vendors;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.failure.Failure;
import dev.sluice.failure.FailureClassifier;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import java.time.Instant;

/**
 * How one vendor's non-2xx answers read: classified into the failure taxonomy, and rewritten
 * in OpenAI's error shape with the vendor's own words kept. A vendor whose errors have a
 * shape of their own names its readers here; every other one is read as {@link #OPENAI}.
 *
 * @param classifier the answer's failure class, its headers kept
 * @param normaliser the answer in OpenAI's error shape
 */
public record UpstreamErrors(Classifier classifier, Normaliser normaliser) {
    /** OpenAI's errors, and any answer read by its status, headers and an OpenAI-shaped body. */
    public static final UpstreamErrors OPENAI = new UpstreamErrors(FailureClassifier::fromAnswer, OpenAiShape::error);

    /** Classifies a non-2xx answer. */
    @FunctionalInterface
    public interface Classifier {
        Failure classify(int status, Buffer body, MultiMap headers, Instant now);
    }

    /** Rewrites a non-2xx answer's body in OpenAI's error shape. */
    @FunctionalInterface
    public interface Normaliser {
        ObjectNode normalise(int status, Buffer body);
    }
}
