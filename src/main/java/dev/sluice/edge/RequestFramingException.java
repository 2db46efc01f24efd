package dev.sluice.edge;

/**
 * A request head whose framing could be read two ways (RFC 9112 §6): a proxy in front of
 * Sluice might split the bytes into requests differently, so the request is refused and the
 * connection closed rather than guessed at. The message names the fault, never the bytes.
 */
final class RequestFramingException extends RuntimeException {
    RequestFramingException(String message) {
        super(message, null, false, false);
    }
}
