package dev.sluice.call;

import dev.sluice.call.guardrail.GuardrailRefusal;
import dev.sluice.failure.Failure;
import dev.sluice.failure.FailureClass;
import io.vertx.core.buffer.Buffer;
import java.util.Optional;

/** A guardrail's refusal as a failure of the attempt, so the router stops there. */
final class GuardrailFailures {
    private GuardrailFailures() {}

    static Failure of(GuardrailRefusal refusal) {
        return new Failure(FailureClass.GUARDRAIL, 0, Buffer.buffer(), Optional.empty(), refusal.message());
    }
}
