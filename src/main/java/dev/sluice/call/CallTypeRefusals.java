package dev.sluice.call;

import dev.sluice.config.Deployment;
import dev.sluice.config.ModelMode;
import dev.sluice.failure.Failure;
import dev.sluice.failure.FailureClass;
import dev.sluice.model.Operation;
import dev.sluice.vendors.Provider;
import dev.sluice.wire.ErrorBodies;
import dev.sluice.wire.Json;
import java.util.Optional;

/**
 * A deployment that cannot serve the kind of call asked of it: its provider's API has no
 * such call (rerank at OpenAI, image generation at Anthropic), or its {@code model_info.mode}
 * says it serves another kind. The attempt fails as a 400 that names the deployment and
 * why, without calling it; a sibling that serves the call may still take it.
 */
final class CallTypeRefusals {
    /** The code of the refusal, for a caller to tell it from the upstream's own 400s. */
    static final String CODE = "unsupported_call_type";

    private CallTypeRefusals() {}

    static Optional<Failure> of(Provider provider, Deployment deployment, Operation operation) {
        String call = "/v1" + operation.path();
        if (!provider.serves(operation)) {
            return Optional.of(refusal("Sluice: provider '" + deployment.params().provider() + "' of deployment '" + deployment.id()
                    + "' (model group '" + deployment.modelName() + "') does not serve " + call + "."));
        }
        Optional<ModelMode> mode = deployment.info().mode();
        if (mode.isPresent() && !mode.get().serves(operation)) {
            return Optional.of(refusal("Sluice: deployment '" + deployment.id() + "' of model group '" + deployment.modelName()
                    + "' has model_info.mode '" + mode.get().configName() + "', which does not serve " + call + "."));
        }
        return Optional.empty();
    }

    private static Failure refusal(String message) {
        return new Failure(FailureClass.REJECTED, 400, Json.buffer(ErrorBodies.node(message, "invalid_request_error", "model", CODE)),
                Optional.empty(), message);
    }
}
