package dev.sluice.vendors.openai.responses.entry;

/**
 * The Responses API's routes: calls ({@code POST /v1/responses}) through the model-call path
 * with {@code codec}, and the responses it kept ({@code GET}/{@code DELETE /v1/responses/{id}}).
 */
public record ResponsesEndpoints(ResponsesCodec codec, StoredResponses stored) {}
