package dev.sluice.provider.bedrock;

import dev.sluice.config.Deployment;
import dev.sluice.config.Secret;
import dev.sluice.provider.UpstreamRequest;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.net.URI;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;
import software.amazon.awssdk.identity.spi.AwsSessionCredentialsIdentity;

/**
 * Signs Bedrock calls with AWS Signature Version 4 for the service {@code bedrock}, by the AWS
 * SDK's own signer. The credentials are the deployment's {@code aws_access_key_id},
 * {@code aws_secret_access_key} and {@code aws_session_token} when it sets them, else whatever
 * the SDK's default chain finds (environment, profile, web identity, container or instance
 * role); the chain may read files or call a metadata endpoint, so it runs off the event loop.
 */
final class BedrockSigning {
    static final String SERVICE = "bedrock";
    /** The headers the signature adds; Host is left to the HTTP client, which writes the same value. */
    private static final List<String> SIGNED_HEADERS = List.of("X-Amz-Date", "X-Amz-Security-Token", "x-amz-content-sha256",
            "Authorization");

    private final AwsV4HttpSigner signer = AwsV4HttpSigner.create();
    private final Clock clock;
    private volatile AwsCredentialsProvider defaultChain;

    BedrockSigning(Clock clock) {
        this.clock = clock;
    }

    /** The deployment's own keys, when it sets them. */
    static Optional<AwsCredentialsIdentity> staticCredentials(Deployment deployment) {
        var vendor = deployment.params().vendor();
        if (vendor.awsAccessKeyId().isEmpty() || vendor.awsSecretAccessKey().isEmpty()) {
            return Optional.empty();
        }
        String keyId = vendor.awsAccessKeyId().get().value();
        String secret = vendor.awsSecretAccessKey().get().value();
        Optional<Secret> token = vendor.awsSessionToken();
        return Optional.of(token.isPresent()
                ? AwsSessionCredentialsIdentity.create(keyId, secret, token.get().value())
                : AwsCredentialsIdentity.create(keyId, secret));
    }

    /** The request with its signature headers; completes on the caller's context. */
    Future<UpstreamRequest> sign(Deployment deployment, UpstreamRequest request, String region) {
        Optional<AwsCredentialsIdentity> own = staticCredentials(deployment);
        if (own.isPresent()) {
            return Future.succeededFuture(signed(request, own.get(), region));
        }
        Context context = Vertx.currentContext();
        if (context == null) {
            return Future.succeededFuture(signed(request, chain().resolveCredentials(), region));
        }
        return context.<AwsCredentialsIdentity>executeBlocking(() -> chain().resolveCredentials(), false)
                .map(credentials -> signed(request, credentials, region));
    }

    UpstreamRequest signed(UpstreamRequest request, AwsCredentialsIdentity credentials, String region) {
        SdkHttpRequest http = SdkHttpRequest.builder().method(SdkHttpMethod.POST).uri(URI.create(request.url())).build();
        SignedRequest signed = signer.sign(r -> r.identity(credentials)
                .request(http)
                .payload(ContentStreamProvider.fromByteArrayUnsafe(request.body()))
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, SERVICE)
                .putProperty(AwsV4HttpSigner.REGION_NAME, region)
                .putProperty(HttpSigner.SIGNING_CLOCK, clock));
        Map<String, String> headers = new LinkedHashMap<>(request.headers());
        for (String name : SIGNED_HEADERS) {
            signed.request().firstMatchingHeader(name).ifPresent(value -> headers.put(name, value));
        }
        return request.withHeaders(headers);
    }

    private AwsCredentialsProvider chain() {
        AwsCredentialsProvider chain = defaultChain;
        if (chain == null) {
            synchronized (this) {
                if (defaultChain == null) {
                    defaultChain = DefaultCredentialsProvider.builder().build();
                }
                chain = defaultChain;
            }
        }
        return chain;
    }
}
