package dev.sluice.call.guardrail;

import dev.sluice.config.GuardrailMode;

/**
 * A guardrail's refusal of a prompt or an answer. It never repeats the text that matched:
 * a prompt refused for holding a secret must not send the secret back, to the caller or to
 * a log.
 *
 * @param guardrail the {@code guardrail_name} that refused
 * @param mode      {@code PRE_CALL} for a prompt, {@code POST_CALL} for an answer
 * @param reason    what matched, by its configured name: {@code blocked word 'password'}
 *                  or {@code pattern 'aws-key'}
 */
public record GuardrailRefusal(String guardrail, GuardrailMode mode, String reason) {

    /** One sentence for the caller's error message and the log. */
    public String message() {
        String what = mode == GuardrailMode.PRE_CALL ? "the prompt" : "the answer";
        return "Guardrail '" + guardrail + "' (" + mode.configName() + ") refused " + what + ": " + reason + ".";
    }
}
