package dev.sluice.vendors.stream;

/**
 * One event of a vendor's stream, unwrapped from its framing: a server-sent event's
 * {@code event:} name and {@code data:} text, or an AWS event-stream message's
 * {@code :event-type} (or {@code :exception-type}) header and payload.
 *
 * @param type    the event's name, or null when the framing gives none (Gemini's SSE)
 * @param payload the event's data, for these vendors a JSON document
 */
public record Frame(String type, byte[] payload) {}
