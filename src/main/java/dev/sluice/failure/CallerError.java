package dev.sluice.failure;

/**
 * What a caller is told of a failure Sluice has to describe in its own words, in OpenAI's
 * error shape.
 *
 * @param status the HTTP status
 * @param type   the error's {@code type}
 * @param code   the error's {@code code}
 * @param verb   what happened to the deployment, for the message: "timed out", "could not be reached"
 */
public record CallerError(int status, String type, String code, String verb) {}
