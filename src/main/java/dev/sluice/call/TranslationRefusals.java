package dev.sluice.call;

import dev.sluice.failure.Failure;
import dev.sluice.failure.FailureClass;
import dev.sluice.vendors.UnsupportedParam;
import dev.sluice.wire.ErrorBodies;
import dev.sluice.wire.Json;
import java.util.Optional;

/**
 * A request the deployment's adapter could not write in its vendor's format: a parameter
 * the vendor cannot take, or a value it has no place for. It fails the attempt as a 400 in
 * OpenAI's shape, naming the parameter, and another deployment (of another vendor) may still
 * take the request.
 */
final class TranslationRefusals {
    private TranslationRefusals() {}

    static Failure of(IllegalArgumentException refused) {
        String param = refused instanceof UnsupportedParam unsupported ? unsupported.param() : null;
        String code = refused instanceof UnsupportedParam ? "unsupported_params" : null;
        return new Failure(FailureClass.REJECTED, 400,
                Json.buffer(ErrorBodies.node(refused.getMessage(), "invalid_request_error", param, code)), Optional.empty(),
                refused.getMessage());
    }
}
