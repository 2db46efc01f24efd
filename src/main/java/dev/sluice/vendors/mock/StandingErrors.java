package dev.sluice.vendors.mock;

/**
 * The errors a mock answers the same way whatever the request holds, built once from its
 * options in its vendor's shape and words.
 *
 * @param rateLimited      {@code ratelimit} mode: 429 with the options' wait
 * @param invalidApiKey    {@code auth} mode, to a request without the mock's key
 * @param invalidParameter {@code reject} mode: a 400 for a parameter out of range
 * @param badJson          a body that is not a JSON object
 */
public record StandingErrors(MockError rateLimited, MockError invalidApiKey, MockError invalidParameter,
        MockError badJson) {}
