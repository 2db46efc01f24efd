package dev.sluice.vendors.mock;

import io.vertx.core.MultiMap;
import java.util.Optional;

/**
 * Which error, if any, a mode raises for one call. Modes that change how the mock answers
 * rather than what ({@code ok}, {@code slow}, {@code cut}, {@code hang}) raise none; the
 * conditional modes ({@code auth}, {@code context}, {@code policy}) raise none when the
 * call passes their check, and the call is then answered as {@code ok}.
 */
final class MockFaults {

    private final MockOptions options;
    private final MockErrors errors;
    private final String bearer;

    MockFaults(MockOptions options, MockErrors errors) {
        this.options = options;
        this.errors = errors;
        this.bearer = "Bearer " + options.apiKey();
    }

    Optional<MockError> errorFor(MockMode mode, MockCall call, MultiMap headers) {
        return switch (mode) {
            case OK, SLOW, CUT, HANG -> Optional.empty();
            case FAIL -> Optional.of(errors.internal());
            case RATELIMIT -> Optional.of(errors.standing().rateLimited());
            case AUTH -> hasKey(headers) ? Optional.empty() : Optional.of(errors.standing().invalidApiKey());
            case NOTFOUND -> Optional.of(errors.modelNotFound(call.model()));
            case REJECT -> Optional.of(errors.standing().invalidParameter());
            case CONTEXT -> call.promptChars() > options.maxChars()
                    ? Optional.of(errors.contextLengthExceeded(
                            options.maxChars() / 4, MockTokens.estimate(call.promptChars())))
                    : Optional.empty();
            case POLICY -> call.mentions(options.triggerWord())
                    ? Optional.of(errors.contentFilter())
                    : Optional.empty();
        };
    }

    /** OpenAI sends the key as a bearer token, Azure in {@code api-key}; either will do. */
    private boolean hasKey(MultiMap headers) {
        return bearer.equals(headers.get("Authorization")) || options.apiKey().equals(headers.get("api-key"));
    }
}
