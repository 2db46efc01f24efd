package dev.sluice.vendors.bedrock.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.config.ConfigLoader;
import dev.sluice.config.Deployment;
import dev.sluice.model.Operation;
import dev.sluice.vendors.Providers;
import dev.sluice.vendors.UnsupportedParam;
import dev.sluice.vendors.UpstreamRequest;
import dev.sluice.wire.Json;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The Bedrock adapter's URLs, signing and answers, without a network. */
class BedrockProviderTest {
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-04T10:00:00Z"), ZoneOffset.UTC);

    private static Deployment deployment(String params) throws Exception {
        return ConfigLoader.parse("model_list:\n  - model_name: g\n    litellm_params: {" + params + "}\n",
                Map.of(), Providers.knownPrefixes()).deployments().get(0);
    }

    private static ObjectNode chat() throws Exception {
        return (ObjectNode) Json.parse("{\"model\":\"g\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}".getBytes());
    }

    private static BedrockProvider provider(Map<String, String> env) {
        return new BedrockProvider(env, CLOCK, () -> "fixed", new dev.sluice.catalog.BundledModelCatalog());
    }

    @Test
    void theRuntimeEndpointComesFromTheRegionUnlessOverridden() throws Exception {
        Deployment regional = deployment("model: bedrock/anthropic.claude-3-haiku-20240307-v1:0, aws_region_name: eu-central-1");
        Deployment fromEnv = deployment("model: bedrock/converse/meta.llama3-1-8b-instruct-v1:0");
        Deployment overridden = deployment("model: bedrock/amazon.nova-lite-v1:0, aws_region_name: us-east-1,"
                + " aws_bedrock_runtime_endpoint: 'https://vpce-1.bedrock-runtime.us-east-1.vpce.amazonaws.com/'");
        Deployment apiBase = deployment("model: bedrock/amazon.nova-lite-v1:0, aws_region_name: us-east-1, api_base: 'http://proxy:8080'");

        assertThat(provider(Map.of()).request(regional, Operation.CHAT_COMPLETIONS, chat()).url())
                .isEqualTo("https://bedrock-runtime.eu-central-1.amazonaws.com/model/anthropic.claude-3-haiku-20240307-v1%3A0/converse");
        assertThat(provider(Map.of("AWS_DEFAULT_REGION", "ap-south-1")).request(fromEnv, Operation.CHAT_COMPLETIONS, chat()).url())
                .isEqualTo("https://bedrock-runtime.ap-south-1.amazonaws.com/model/meta.llama3-1-8b-instruct-v1%3A0/converse");
        assertThat(provider(Map.of()).request(overridden, Operation.CHAT_COMPLETIONS, chat()).url())
                .isEqualTo("https://vpce-1.bedrock-runtime.us-east-1.vpce.amazonaws.com/model/amazon.nova-lite-v1%3A0/converse");
        assertThat(provider(Map.of()).request(apiBase, Operation.CHAT_COMPLETIONS, chat()).url())
                .isEqualTo("http://proxy:8080/model/amazon.nova-lite-v1%3A0/converse");
    }

    @Test
    void anArnIsEncodedWholeAndStreamsUseConverseStream() throws Exception {
        Deployment arn = deployment("model: 'bedrock/arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-3-5-sonnet-20241022-v2:0',"
                + " aws_region_name: us-east-1");
        ObjectNode stream = chat().put("stream", true);

        UpstreamRequest request = provider(Map.of()).request(arn, Operation.CHAT_COMPLETIONS, stream);

        assertThat(request.url()).isEqualTo("https://bedrock-runtime.us-east-1.amazonaws.com/model/"
                + "arn%3Aaws%3Abedrock%3Aus-east-1%3A123456789012%3Ainference-profile%2Fus.anthropic.claude-3-5-sonnet-20241022-v2%3A0"
                + "/converse-stream");
        assertThat(request.headers()).containsEntry("Accept", "application/vnd.amazon.eventstream");
    }

    @Test
    void embeddingsUseInvokeAndTextCompletionsAreRefused() throws Exception {
        Deployment titan = deployment("model: bedrock/amazon.titan-embed-text-v2:0, aws_region_name: us-east-1");
        ObjectNode body = (ObjectNode) Json.parse("{\"model\":\"g\",\"input\":\"x\"}".getBytes());

        UpstreamRequest request = provider(Map.of()).request(titan, Operation.EMBEDDINGS, body);

        assertThat(request.url()).endsWith("/model/amazon.titan-embed-text-v2%3A0/invoke");
        assertThat(new String(request.body())).isEqualTo("{\"inputText\":\"x\"}");
        assertThatThrownBy(() -> provider(Map.of()).request(titan, Operation.COMPLETIONS, body))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("/completions");
    }

    @Test
    void anUnsupportedParameterIsRefusedOrDroppedAsDropParamsSays() throws Exception {
        Deployment strict = deployment("model: bedrock/amazon.nova-lite-v1:0, aws_region_name: us-east-1");
        Deployment lenient = deployment("model: bedrock/amazon.nova-lite-v1:0, aws_region_name: us-east-1, drop_params: true");
        ObjectNode body = chat().put("logprobs", true);

        assertThatThrownBy(() -> provider(Map.of()).request(strict, Operation.CHAT_COMPLETIONS, body))
                .isInstanceOfSatisfying(UnsupportedParam.class, e -> assertThat(e.param()).isEqualTo("logprobs"));
        assertThat(provider(Map.of()).request(lenient, Operation.CHAT_COMPLETIONS, body).droppedParams()).containsExactly("logprobs");
    }

    @Test
    void staticKeysSignAtOnceWithTheSessionToken() throws Exception {
        Deployment d = deployment("model: bedrock/amazon.nova-lite-v1:0, aws_region_name: us-west-2, aws_access_key_id: AKID1,"
                + " aws_secret_access_key: s3cr3t-value, aws_session_token: the-session-token");
        BedrockProvider provider = provider(Map.of());

        UpstreamRequest signed = provider.authorize(d, provider.request(d, Operation.CHAT_COMPLETIONS, chat()))
                .toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);

        assertThat(signed.headers()).containsEntry("X-Amz-Date", "20261204T100000Z")
                .containsEntry("X-Amz-Security-Token", "the-session-token");
        assertThat(signed.headers().get("Authorization"))
                .startsWith("AWS4-HMAC-SHA256 Credential=AKID1/20261204/us-west-2/bedrock/aws4_request, SignedHeaders=");
        assertThat(provider.key(d)).hasValueSatisfying(key -> assertThat(key.value()).isEqualTo("s3cr3t-value"));
    }

    @Test
    void theDefaultCredentialChainIsReadOffTheEventLoopAndTheFutureCompletesOnTheCallersContext() throws Exception {
        Deployment d = deployment("model: bedrock/amazon.nova-lite-v1:0, aws_region_name: us-east-1");
        BedrockProvider provider = provider(Map.of());
        UpstreamRequest laidOut = provider.request(d, Operation.CHAT_COMPLETIONS, chat());
        System.setProperty("aws.accessKeyId", "AKIDFROMCHAIN");
        System.setProperty("aws.secretAccessKey", "chain-secret");
        Vertx vertx = Vertx.vertx();
        try {
            Context context = vertx.getOrCreateContext();
            CompletableFuture<String> done = new CompletableFuture<>();
            context.runOnContext(ignored -> provider.authorize(d, laidOut).onComplete(signed -> {
                if (signed.failed()) {
                    done.completeExceptionally(signed.cause());
                } else if (Vertx.currentContext() != context) {
                    done.completeExceptionally(new AssertionError("completed on another context"));
                } else {
                    done.complete(signed.result().headers().get("Authorization"));
                }
            }));

            assertThat(done.get(10, TimeUnit.SECONDS)).startsWith("AWS4-HMAC-SHA256 Credential=AKIDFROMCHAIN/");
        } finally {
            System.clearProperty("aws.accessKeyId");
            System.clearProperty("aws.secretAccessKey");
            vertx.close();
        }
    }

    @Test
    void aDeploymentNotLentTheDefaultChainIsNeverSignedByIt() throws Exception {
        Deployment d = deployment("model: bedrock/amazon.nova-lite-v1:0, aws_region_name: us-east-1")
                .withAmbient(dev.sluice.config.AmbientCredentials.NONE);
        BedrockProvider provider = provider(Map.of());
        UpstreamRequest laidOut = provider.request(d, Operation.CHAT_COMPLETIONS, chat());
        System.setProperty("aws.accessKeyId", "AKIDFROMCHAIN");
        System.setProperty("aws.secretAccessKey", "chain-secret");
        try {
            var signed = provider.authorize(d, laidOut);
            assertThat(signed.failed()).isTrue();
            assertThat(signed.cause().getMessage()).startsWith("no AWS credentials: litellm_params.aws_access_key_id: missing")
                    .contains("aws_default_chain");
            assertThat(provider.borrowed(d)).isPresent();
            assertThat(provider.borrowed(d.withAmbient(dev.sluice.config.AmbientCredentials.OPERATOR))).isEmpty();
        } finally {
            System.clearProperty("aws.accessKeyId");
            System.clearProperty("aws.secretAccessKey");
        }
    }

    @Test
    void errorBodiesOfEitherShapeBecomeOpenAisShape() {
        BedrockProvider provider = provider(Map.of());
        ObjectNode aws = provider.normaliseError(429, Buffer.buffer("{\"message\":\"slow down\",\"__type\":\"ThrottlingException\"}"));
        ObjectNode openAi = provider.normaliseError(400, Buffer.buffer("{\"error\":{\"message\":\"refused\",\"type\":\"invalid_request_error\","
                + "\"param\":\"seed\",\"code\":\"unsupported_params\"}}"));
        ObjectNode text = provider.normaliseError(502, Buffer.buffer("Bad Gateway"));

        assertThat(aws.toString()).isEqualTo("{\"error\":{\"message\":\"slow down\",\"type\":\"rate_limit_error\",\"param\":null,"
                + "\"code\":\"ThrottlingException\",\"upstream_status\":429}}");
        assertThat(openAi.at("/error/code").asText()).isEqualTo("unsupported_params");
        assertThat(text.at("/error/message").asText()).isEqualTo("Bad Gateway");
    }
}
