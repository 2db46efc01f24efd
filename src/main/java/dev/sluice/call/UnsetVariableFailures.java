package dev.sluice.call;

import dev.sluice.config.Deployment;
import dev.sluice.failure.Failure;
import dev.sluice.failure.FailureClass;
import dev.sluice.wire.ErrorBodies;
import dev.sluice.wire.Json;
import java.util.List;
import java.util.Optional;

/**
 * An attempt at a deployment whose credentials or endpoint name environment variables that
 * were not set when Sluice started ({@code api_key: os.environ/AZURE_API_KEY}). The call is
 * not sent: it fails as the vendor would answer a call without its key, a 401 in OpenAI's
 * shape, naming the variables (never a value) so the operator knows what to set.
 *
 * <p>As an auth failure it is not repeated in place, another deployment of the group may take
 * the request, fallbacks apply, and the deployment is benched at once: the process
 * environment does not change while Sluice runs, so only a restart heals it.
 */
final class UnsetVariableFailures {
    static final String CODE = "missing_environment_variable";

    private UnsetVariableFailures() {}

    /** The failure of an attempt at {@code deployment}, when it names unset variables. */
    static Optional<Failure> of(Deployment deployment) {
        List<String> unset = deployment.params().endpoint().unsetVariables();
        if (unset.isEmpty()) {
            return Optional.empty();
        }
        String message = "Sluice: deployment '" + deployment.id() + "' (" + deployment.params().model()
                + ") was not called: its config names environment variable" + (unset.size() == 1 ? " " : "s ")
                + String.join(", ", unset) + ", which " + (unset.size() == 1 ? "was" : "were")
                + " not set when Sluice started. Set " + (unset.size() == 1 ? "it" : "them") + " and restart Sluice.";
        return Optional.of(new Failure(FailureClass.AUTH, 401,
                Json.buffer(ErrorBodies.node(message, "authentication_error", null, CODE)), Optional.empty(), message));
    }
}
