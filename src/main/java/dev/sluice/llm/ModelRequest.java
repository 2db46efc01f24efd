package dev.sluice.llm;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A model call as its entry API decoded it: checked just enough to route it, with the
 * caller's body kept whole so a provider of the same dialect gets it as it was sent.
 *
 * @param operation what is asked: a chat completion, a text completion, embeddings
 * @param dialect   the format {@code body} is written in
 * @param body      the caller's body; read, never changed
 * @param group     the model group the caller named
 * @param stream    whether the caller asked for server-sent events
 */
public record ModelRequest(Operation operation, Dialect dialect, ObjectNode body, String group, boolean stream) {}
