package dev.sluice.vendors.bedrock.provider;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.catalog.ModelCatalog;
import dev.sluice.config.Deployment;
import dev.sluice.config.Secret;
import dev.sluice.model.ChatRequest;
import dev.sluice.model.Dialect;
import dev.sluice.model.ModelRequest;
import dev.sluice.model.Operation;
import dev.sluice.vendors.DropParams;
import dev.sluice.vendors.ForwardedBody;
import dev.sluice.vendors.OpenAiShape;
import dev.sluice.vendors.Provider;
import dev.sluice.vendors.UnsupportedParam;
import dev.sluice.vendors.UpstreamErrors;
import dev.sluice.vendors.UpstreamRequest;
import dev.sluice.vendors.anthropic.provider.AnthropicCalls;
import dev.sluice.vendors.bedrock.wire.BedrockConverse;
import dev.sluice.vendors.bedrock.wire.BedrockEmbeddings;
import dev.sluice.vendors.bedrock.wire.ConverseCall;
import dev.sluice.vendors.bedrock.wire.ConverseStreamDecoder;
import dev.sluice.vendors.openai.wire.OpenAiChat;
import dev.sluice.vendors.stream.StreamTranslator;
import dev.sluice.vendors.stream.TranslatedStream;
import dev.sluice.wire.Json;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * Amazon Bedrock ({@code bedrock/MODEL}, {@code bedrock/converse/MODEL} and LiteLLM's
 * {@code bedrock/invoke/MODEL}): chat through the
 * Converse API ({@code POST /model/ID/converse}, {@code /converse-stream} for streams, answered
 * as an AWS event stream), embeddings through InvokeModel ({@code POST /model/ID/invoke}), every
 * call signed with AWS Signature Version 4. A caller of the Messages API asking a Claude model
 * is the exception: its own body goes to InvokeModel natively ({@link BedrockClaude}). See
 * {@code docs/providers/bedrock.md}.
 */
public final class BedrockProvider implements Provider {
    private static final String VENDOR = "Bedrock";
    private static final String EVENT_STREAM = "application/vnd.amazon.eventstream";

    private final BedrockEndpoint endpoint;
    private final BedrockSigning signing;
    private final BedrockAnswers answers;
    private final BedrockClaude claude;

    /**
     * @param env     where the region is looked up when the deployment names none
     * @param clock   the time calls are signed at and answers are dated with
     * @param catalog where a Claude model's output limit is found, for the {@code max_tokens} it requires
     */
    public BedrockProvider(Map<String, String> env, Clock clock, ModelCatalog catalog) {
        this(env, clock, () -> UUID.randomUUID().toString(), catalog);
    }

    /**
     * @param clock the time calls are signed at and answers are dated with
     * @param ids   the ids of answers, which Converse does not give
     */
    public BedrockProvider(Map<String, String> env, Clock clock, Supplier<String> ids, ModelCatalog catalog) {
        this.endpoint = new BedrockEndpoint(env);
        this.signing = new BedrockSigning(clock);
        this.answers = new BedrockAnswers(clock, ids);
        this.claude = new BedrockClaude(new AnthropicCalls(clock, catalog), clock);
    }

    /** A Messages API caller asking a Claude model is sent its own body, through InvokeModel. */
    @Override
    public boolean passesThrough(Deployment deployment, ModelRequest request) {
        return claude.serves(deployment, request);
    }

    /** Bedrock streams are AWS event streams, never server-sent events: the gateway writes the caller's anew. */
    @Override
    public boolean relaysStream(Deployment deployment, ModelRequest request) {
        return false;
    }

    @Override
    public UpstreamRequest request(Deployment deployment, ModelRequest request) {
        if (claude.serves(deployment, request)) {
            return claude.request(deployment, request, endpoint.url(deployment, BedrockClaude.action(request)));
        }
        String modelId = BedrockEndpoint.modelId(deployment);
        ObjectNode forwarded = ForwardedBody.of(request.body(), modelId);
        Map<String, String> headers = new LinkedHashMap<>(deployment.params().vendor().extraHeaders());
        switch (request.operation()) {
            case EMBEDDINGS -> {
                headers.put("Accept", "application/json");
                byte[] body = Json.bytes(BedrockEmbeddings.encode(modelId, forwarded));
                return new UpstreamRequest(endpoint.url(deployment, "invoke"), headers, body);
            }
            case CHAT_COMPLETIONS -> {
                ChatRequest chat = OpenAiChat.decodeRequest(forwarded);
                ConverseCall call = BedrockConverse.encodeRequest(chat, modelId);
                List<String> dropped = call.unsupported();
                if (!dropped.isEmpty() && !DropParams.allowed(deployment, request)) {
                    throw new UnsupportedParam(dropped.get(0), VENDOR);
                }
                headers.put("Accept", request.stream() ? EVENT_STREAM : "application/json");
                String action = request.stream() ? "converse-stream" : "converse";
                return new UpstreamRequest(endpoint.url(deployment, action), headers, Json.bytes(call.body()), dropped);
            }
            default -> throw new IllegalArgumentException("Bedrock serves chat completions and embeddings; "
                    + request.operation().path() + " is not offered (use /chat/completions)");
        }
    }

    @Override
    public UpstreamRequest request(Deployment deployment, Operation endpoint, ObjectNode body) {
        boolean stream = body.path("stream").asBoolean(false);
        return request(deployment, new ModelRequest(endpoint, Dialect.OPENAI, body, body.path("model").asText(""), stream));
    }

    @Override
    public Future<UpstreamRequest> authorize(Deployment deployment, UpstreamRequest request) {
        Optional<String> region = endpoint.region(deployment);
        if (region.isEmpty()) {
            return Future.failedFuture(new IllegalStateException(missingRegion()));
        }
        try {
            return signing.sign(deployment, request, region.get());
        } catch (RuntimeException noCredentials) {
            return Future.failedFuture(new IllegalStateException("no AWS credentials: " + noCredentials.getMessage()));
        }
    }

    @Override
    public boolean streams(MultiMap headers) {
        String type = headers.get("Content-Type");
        return type != null && type.regionMatches(true, 0, EVENT_STREAM, 0, EVENT_STREAM.length());
    }

    @Override
    public StreamTranslator streamTranslator(Deployment deployment, ModelRequest request) {
        if (claude.serves(deployment, request)) {
            return claude.streamTranslator(request);
        }
        boolean includeUsage = request.body().path("stream_options").path("include_usage").asBoolean(false);
        ConverseStreamDecoder converse = new ConverseStreamDecoder(answers.nextId(), request.group(),
                BedrockConverse.responseTool(request.body()));
        return new TranslatedStream(new EventStreamFraming(), new BedrockEventDecoder(converse), includeUsage, answers.created());
    }

    /** The secret access key: what must never reach a caller, wherever an error quotes it. */
    @Override
    public Optional<Secret> key(Deployment deployment) {
        return deployment.params().vendor().awsSecretAccessKey();
    }

    /** The secret access key and the session token: AWS never echoes either, but a proxy in between might. */
    @Override
    public java.util.List<Secret> secrets(Deployment deployment) {
        java.util.List<Secret> secrets = new java.util.ArrayList<>(2);
        deployment.params().vendor().awsSecretAccessKey().ifPresent(secrets::add);
        deployment.params().vendor().awsSessionToken().ifPresent(secrets::add);
        return secrets;
    }

    @Override
    public Optional<dev.sluice.vendors.BorrowedCredential> borrowed(Deployment deployment) {
        return BedrockSigning.borrowed(deployment);
    }

    @Override
    public Optional<String> misconfiguration(Deployment deployment) {
        if (endpoint.region(deployment).isEmpty()) {
            return Optional.of(missingRegion());
        }
        var vendor = deployment.params().vendor();
        if (vendor.awsAccessKeyId().isPresent() != vendor.awsSecretAccessKey().isPresent()) {
            return Optional.of((vendor.awsAccessKeyId().isPresent() ? "aws_secret_access_key" : "aws_access_key_id")
                    + ": missing (expected: aws_access_key_id and aws_secret_access_key together, or neither to use"
                    + " the AWS default credential chain)");
        }
        return Optional.empty();
    }

    @Override
    public Optional<OpenAiShape.ShapedAnswer> normaliseSuccess(ModelRequest request, Buffer body) {
        // The deployment is not known here: InvokeModel's answer tells itself apart from Converse's by its shape.
        if (request.writtenIn(Dialect.ANTHROPIC) && BedrockClaude.isMessage(body)) {
            return claude.answer(request, body);
        }
        return answers.shape(request, body);
    }

    @Override
    public UpstreamErrors errors() {
        return BedrockFailures.ERRORS;
    }

    private static String missingRegion() {
        return "aws_region_name: missing (expected: the AWS region of the Bedrock deployment, e.g. us-east-1, here or in"
                + " AWS_REGION or AWS_DEFAULT_REGION)";
    }
}
