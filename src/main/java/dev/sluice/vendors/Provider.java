package dev.sluice.vendors;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.config.Deployment;
import dev.sluice.config.Secret;
import dev.sluice.failure.Failure;
import dev.sluice.model.Dialect;
import dev.sluice.model.ModelRequest;
import dev.sluice.model.Operation;
import dev.sluice.vendors.stream.StreamTranslator;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import java.time.Instant;
import java.util.Optional;

/**
 * How one provider is called: its URL layout, headers and body mapping. Adapters are
 * small and declarative; everything about retries and routing lives elsewhere.
 */
public interface Provider {

    /**
     * The wire format this vendor's bodies, answers, stream events and errors are written in.
     * A request decoded from the same dialect reaches it natively, losing nothing.
     */
    default Dialect dialect() {
        return Dialect.OPENAI;
    }

    /**
     * Whether {@code deployment} is sent the caller's own body, untranslated, for
     * {@code request}: by default when the caller wrote in this vendor's dialect. Its answers
     * and stream events then reach the caller as the vendor wrote them.
     */
    default boolean passesThrough(Deployment deployment, ModelRequest request) {
        return request.writtenIn(dialect());
    }

    /**
     * Whether this deployment's stream for {@code request} reaches the caller as the vendor
     * wrote it, cut only at event boundaries: by default when the call {@link #passesThrough}.
     * A vendor that frames its stream otherwise than as server-sent events (Bedrock's event
     * stream) takes the caller's body but has its stream written anew.
     */
    default boolean relaysStream(Deployment deployment, ModelRequest request) {
        return passesThrough(deployment, request);
    }

    /**
     * Lays out the call of one routed request. In the vendor's own dialect it is the caller's
     * body with {@code model} set to the deployment's provider model and Sluice's own fields
     * removed ({@link ForwardedBody}), every other field kept. An adapter of another dialect
     * overrides this to write the request from the internal model instead.
     */
    default UpstreamRequest request(Deployment deployment, ModelRequest request) {
        String model = deployment.params().providerModel();
        UpstreamRequest laidOut = request(deployment, request.operation(), ForwardedBody.of(request.body(), model));
        // A form (an audio file) goes on as the caller sent it, only its model replaced.
        return request.form().map(form -> laidOut.withForm(form.withField("model", model), form.contentType())).orElse(laidOut);
    }

    /**
     * Whether this vendor's API serves {@code operation}: by default the chat-like calls every
     * adapter translates. A call it does not serve is refused with a 400 naming the provider,
     * and a sibling deployment of another provider may still take it.
     */
    default boolean serves(Operation operation) {
        return operation.everyVendorServes();
    }

    /**
     * Lays out the call. {@code body} is the caller's body with Sluice's own fields removed
     * and {@code model} already set to the deployment's provider model; the adapter may
     * change it further.
     */
    UpstreamRequest request(Deployment deployment, Operation endpoint, ObjectNode body);

    /**
     * The call that counts the input tokens of {@code request} at the vendor, when this vendor
     * counts them for a caller of its own dialect (Anthropic's {@code count_tokens}); empty
     * when the gateway counts them itself.
     */
    default Optional<UpstreamRequest> countTokens(Deployment deployment, ModelRequest request) {
        return Optional.empty();
    }

    /**
     * Adds what proves the call is the deployment's to make, when that takes more than a key
     * in a header: an OAuth2 access token fetched (or taken from its cache), a request
     * signature. Anything slow runs off the event loop; the future completes on the
     * caller's context. A failure (credentials that cannot be read or exchanged) fails the
     * future with a message that names no secret; the attempt then fails as an auth failure.
     */
    default Future<UpstreamRequest> authorize(Deployment deployment, UpstreamRequest request) {
        return Future.succeededFuture(request);
    }

    /**
     * Whether a 2xx answer with these headers is a stream this adapter reads: by default
     * server-sent events ({@code text/event-stream}).
     */
    default boolean streams(MultiMap headers) {
        String type = headers.get("Content-Type");
        return type != null && type.regionMatches(true, 0, "text/event-stream", 0, 17);
    }

    /**
     * What turns this deployment's stream for {@code request} into OpenAI server-sent events,
     * one per stream. By default the events pass as the upstream wrote them.
     */
    default StreamTranslator streamTranslator(Deployment deployment, ModelRequest request) {
        return StreamTranslator.openAi();
    }

    /**
     * The secret this adapter sends for {@code deployment}, wherever it came from (the
     * deployment's {@code api_key}, or a provider variable such as {@code OPENAI_API_KEY}):
     * everything relayed back to a caller has it masked.
     */
    Optional<Secret> key(Deployment deployment);

    /**
     * Every secret this adapter sends for {@code deployment}, all masked in what is relayed:
     * by default its {@link #key}; a vendor that signs with more than one (AWS's secret key and
     * session token) adds the others.
     */
    default java.util.List<Secret> secrets(Deployment deployment) {
        return key(deployment).map(java.util.List::of).orElse(java.util.List.of());
    }

    /**
     * The credential this adapter would take from the gateway for {@code deployment} (Application
     * Default Credentials, the AWS default chain, a file) that {@link Deployment#ambient()} does
     * not lend it, or empty. A provider variable needs no refusal: one that is not lent is simply
     * not read ({@link dev.sluice.config.AmbientCredentials#variable}), and the call goes without it.
     */
    default java.util.Optional<BorrowedCredential> borrowed(Deployment deployment) {
        return java.util.Optional.empty();
    }

    /**
     * Why this deployment cannot be called as configured, as a config problem relative to
     * its {@code litellm_params} (e.g. {@code api_base: missing (expected: ...)}), or empty
     * when it can.
     */
    Optional<String> misconfiguration(Deployment deployment);

    /** A 2xx body as the caller should see it; empty when it is not a usable answer. */
    default Optional<OpenAiShape.ShapedAnswer> normaliseSuccess(Buffer body) {
        return OpenAiShape.answer(body);
    }

    /**
     * A 2xx body answering {@code request}, as the caller should see it; empty when it is not
     * a usable answer. An adapter whose answer depends on what was asked (a structured output
     * asked as a forced tool call, say) overrides this one. A vendor that refuses with a 2xx
     * (Gemini answers a blocked prompt with a 200 and no candidates) throws a
     * {@link dev.sluice.vendors.stream.StreamFailure} carrying the failure as classified.
     */
    default Optional<OpenAiShape.ShapedAnswer> normaliseSuccess(ModelRequest request, Buffer body) {
        return normaliseSuccess(body);
    }

    /** How this vendor's non-2xx answers read: by default as OpenAI's. */
    default UpstreamErrors errors() {
        return UpstreamErrors.OPENAI;
    }

    /**
     * A non-2xx answer classified into the failure taxonomy, with its headers kept: the
     * router reads only the class, never a vendor's format.
     */
    default Failure classify(int status, Buffer body, MultiMap headers, Instant now) {
        return errors().classifier().classify(status, body, headers, now);
    }

    /**
     * A non-2xx answer in OpenAI's error shape, keeping the upstream's own words. Besides the
     * vendor's own error bodies it must read an OpenAI-shaped one: a request the adapter
     * refused to translate fails with such a body.
     */
    default ObjectNode normaliseError(int status, Buffer body) {
        return errors().normaliser().normalise(status, body);
    }
}
