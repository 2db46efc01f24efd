package dev.sluice.vendors.bedrock.provider;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.config.ConfigLoader;
import dev.sluice.testing.Chat;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.Providers;
import dev.sluice.wire.Json;
import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.HttpSigner;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

/**
 * What a Bedrock deployment's calls look like on the wire and what the caller sees when the wire
 * misbehaves: the signature, recomputed with AWS's signer; a corrupt event-stream frame; an
 * exception frame; an error quoting the secret key.
 */
class BedrockWireTest {
    private static final String CONVERSE_ANSWER = "{\"output\":{\"message\":{\"role\":\"assistant\",\"content\":[{\"text\":\"ok\"}]}},"
            + "\"stopReason\":\"end_turn\",\"usage\":{\"inputTokens\":1,\"outputTokens\":1,\"totalTokens\":2}}";

    private static TestGateway gatewayBefore(RecordingBedrock bedrock) {
        return TestGateway.start("model_list:\n" + BedrockGatewayTest.deployment("claude", BedrockGatewayTest.CLAUDE, bedrock.url(), "b-1"));
    }

    @Test
    void theSignatureIsTheOneAwssSignerComputesForTheRequestAsItArrived() throws Exception {
        try (RecordingBedrock bedrock = new RecordingBedrock(r -> r.putHeader("Content-Type", "application/json").end(CONVERSE_ANSWER));
                TestGateway gateway = gatewayBefore(bedrock)) {
            assertThat(gateway.post("/v1/chat/completions", Chat.body("claude", "sign me")).statusCode()).isEqualTo(200);

            RecordingBedrock.Received call = bedrock.received().get(0);
            assertThat(call.uri()).isEqualTo("/model/us.anthropic.claude-3-5-sonnet-20241022-v2%3A0/converse");
            assertThat(call.headers().get("host")).isEqualTo(URI.create(bedrock.url()).getAuthority());
            Instant signedAt = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmssX").parse(call.headers().get("x-amz-date"), Instant::from);
            SdkHttpRequest same = SdkHttpRequest.builder().method(SdkHttpMethod.POST).uri(URI.create(bedrock.url() + call.uri())).build();
            String expected = AwsV4HttpSigner.create().sign(r -> r
                    .identity(AwsCredentialsIdentity.create("AKIDMOCK", BedrockGatewayTest.SECRET))
                    .request(same)
                    .payload(ContentStreamProvider.fromByteArray(call.body()))
                    .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "bedrock")
                    .putProperty(AwsV4HttpSigner.REGION_NAME, "us-east-1")
                    .putProperty(HttpSigner.SIGNING_CLOCK, Clock.fixed(signedAt, ZoneOffset.UTC)))
                    .request().firstMatchingHeader("Authorization").orElseThrow();
            assertThat(call.headers().get("authorization")).isEqualTo(expected);
        }
    }

    @Test
    void aCorruptFrameAfterTheFirstEventEndsTheStreamWithStreamInterrupted() throws Exception {
        try (RecordingBedrock bedrock = new RecordingBedrock(r -> RecordingBedrock.eventStream(r, List.of(
                        Frames.event("messageStart", "{\"role\":\"assistant\"}"),
                        Frames.event("contentBlockDelta", "{\"contentBlockIndex\":0,\"delta\":{\"text\":\"Hel\"}}"),
                        Frames.corrupt(Frames.event("contentBlockDelta", "{\"contentBlockIndex\":0,\"delta\":{\"text\":\"lo\"}}")),
                        Frames.event("messageStop", "{\"stopReason\":\"end_turn\"}"))));
                TestGateway gateway = gatewayBefore(bedrock)) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.stream("claude", "hi"));

            List<String> events = BedrockGatewayTest.events(response.body());
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(events).anySatisfy(event -> assertThat(event).contains("\"content\":\"Hel\""));
            JsonNode last = Json.parse(events.get(events.size() - 1).getBytes());
            assertThat(last.at("/error/code").asText()).isEqualTo("stream_interrupted");
            assertThat(events).doesNotContain("[DONE]");
            assertThat(response.body()).doesNotContain("\"lo\"");
        }
    }

    @Test
    void anExceptionFrameMidStreamEndsItWithStreamInterrupted() throws Exception {
        try (RecordingBedrock bedrock = new RecordingBedrock(r -> RecordingBedrock.eventStream(r, List.of(
                        Frames.event("messageStart", "{\"role\":\"assistant\"}"),
                        Frames.event("contentBlockDelta", "{\"contentBlockIndex\":0,\"delta\":{\"text\":\"Hel\"}}"),
                        Frames.exception("modelStreamErrorException", "{\"message\":\"the model stopped\"}"))));
                TestGateway gateway = gatewayBefore(bedrock)) {
            List<String> events = BedrockGatewayTest.events(gateway.post("/v1/chat/completions", Chat.stream("claude", "hi")).body());

            assertThat(Json.parse(events.get(events.size() - 1).getBytes()).at("/error/code").asText()).isEqualTo("stream_interrupted");
            assertThat(events).doesNotContain("[DONE]");
        }
    }

    @Test
    void anExceptionFrameBeforeAnyEventFailsTheAttemptLikeItsHttpAnswer() throws Exception {
        try (RecordingBedrock bedrock = new RecordingBedrock(r -> RecordingBedrock.eventStream(r, List.of(
                        Frames.exception("throttlingException", "{\"message\":\"Too many tokens, please wait before trying again.\"}"))));
                TestGateway gateway = gatewayBefore(bedrock)) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.stream("claude", "hi"), "x-litellm-num-retries", "0");

            assertThat(response.statusCode()).isEqualTo(429);
            JsonNode error = Json.parse(response.body().getBytes()).get("error");
            assertThat(error.path("code").asText()).isEqualTo("ThrottlingException");
            assertThat(error.path("message").asText()).contains("Too many tokens");
        }
    }

    @Test
    void theSecretKeyNeverReachesTheCallerEvenWhenBedrockQuotesIt() throws Exception {
        try (RecordingBedrock bedrock = new RecordingBedrock(r -> r.setStatusCode(403)
                        .putHeader("Content-Type", "application/json")
                        .putHeader("x-amzn-ErrorType", "InvalidSignatureException:http://internal.amazon.com/coral/com.amazon.coral.service/")
                        .putHeader("x-debug-echo", BedrockGatewayTest.SECRET)
                        .end("{\"message\":\"The request signature we calculated does not match; secret was "
                                + BedrockGatewayTest.SECRET + "\"}"));
                TestGateway gateway = gatewayBefore(bedrock)) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("claude", "hi"), "x-litellm-num-retries", "0");

            assertThat(response.statusCode()).isEqualTo(403);
            assertThat(Json.parse(response.body().getBytes()).at("/error/code").asText()).isEqualTo("InvalidSignatureException");
            assertThat(response.body()).doesNotContain(BedrockGatewayTest.SECRET);
            assertThat(response.headers().map().toString()).doesNotContain(BedrockGatewayTest.SECRET);
        }
    }

    @Test
    void theSessionTokenIsMaskedToo() throws Exception {
        String token = "bedrock-session-token-FwoGZXIvYXdzEJr";
        try (RecordingBedrock bedrock = new RecordingBedrock(r -> r.setStatusCode(403)
                        .putHeader("Content-Type", "application/json")
                        .putHeader("x-amzn-ErrorType", "ExpiredTokenException")
                        .putHeader("x-debug-echo", token)
                        .end("{\"message\":\"The security token included in the request is expired: " + token + "\"}"));
                TestGateway gateway = TestGateway.start("model_list:\n" + BedrockGatewayTest.deployment("claude", BedrockGatewayTest.CLAUDE,
                        bedrock.url(), "b-1").replace("aws_region_name:", "aws_session_token: " + token + "\n      aws_region_name:"))) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("claude", "hi"), "x-litellm-num-retries", "0");

            assertThat(response.statusCode()).isEqualTo(403);
            assertThat(bedrock.received().getLast().headers().get("x-amz-security-token")).isEqualTo(token);
            assertThat(response.body()).contains("expired").doesNotContain(token);
            assertThat(response.headers().map().toString()).doesNotContain(token);
        }
    }

    @Test
    void aDeploymentWithoutARegionIsAConfigProblem() throws Exception {
        String yaml = """
                model_list:
                  - model_name: claude
                    litellm_params: {model: bedrock/anthropic.claude-3-haiku-20240307-v1:0}
                """;
        var deployments = ConfigLoader.parse(yaml, Map.of(), Providers.knownPrefixes()).deployments();

        assertThat(Providers.builtIn(Map.of(), Clock.systemUTC()).misconfigurations(deployments))
                .containsExactly("model_list[0].litellm_params.aws_region_name: missing (expected: the AWS region of the Bedrock"
                        + " deployment, e.g. us-east-1, here or in AWS_REGION or AWS_DEFAULT_REGION)");
        assertThat(Providers.builtIn(Map.of("AWS_REGION", "eu-west-1"), Clock.systemUTC()).misconfigurations(deployments)).isEmpty();
    }

    @Test
    void liteLlmsInvokeRouteIsServedThroughConverse() throws Exception {
        String yaml = """
                model_list:
                  - model_name: claude
                    litellm_params: {model: bedrock/invoke/anthropic.claude-3-haiku-20240307-v1:0, aws_region_name: us-east-1}
                """;
        var deployments = ConfigLoader.parse(yaml, Map.of(), Providers.knownPrefixes()).deployments();

        assertThat(Providers.builtIn(Map.of(), Clock.systemUTC()).misconfigurations(deployments)).isEmpty();
        assertThat(BedrockEndpoint.modelId(deployments.getFirst())).isEqualTo("anthropic.claude-3-haiku-20240307-v1:0");
    }
}
