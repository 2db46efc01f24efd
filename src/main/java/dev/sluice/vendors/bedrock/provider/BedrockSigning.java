package dev.sluice.vendors.bedrock.provider;

import dev.sluice.config.AmbientCredentials;
import dev.sluice.config.Deployment;
import dev.sluice.config.Secret;
import dev.sluice.vendors.BorrowedCredential;
import dev.sluice.vendors.UpstreamRequest;
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
 * The chain holds the gateway's own credentials, so a deployment that is not lent it
 * ({@link AmbientCredentials.Kind#AWS_DEFAULT_CHAIN}, one given through the model API) is never
 * signed by it: its call fails before the chain is asked.
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

    /** The default chain {@code deployment} would be signed by although it is not lent it, or empty. */
    static Optional<BorrowedCredential> borrowed(Deployment deployment) {
        if (staticCredentials(deployment).isPresent() || deployment.ambient().allows(AmbientCredentials.Kind.AWS_DEFAULT_CHAIN)) {
            return Optional.empty();
        }
        String field = deployment.params().vendor().awsAccessKeyId().isPresent() ? "aws_secret_access_key" : "aws_access_key_id";
        return Optional.of(new BorrowedCredential("litellm_params." + field, "missing (expected: aws_access_key_id and"
                + " aws_secret_access_key written out; a deployment given through the model API is not lent the gateway's AWS"
                + " credentials (environment, profile, web identity, container or instance role) unless"
                + " general_settings.admin_allowed_credentials lists aws_default_chain)"));
    }

    /** The request with its signature headers; completes on the caller's context. */
    Future<UpstreamRequest> sign(Deployment deployment, UpstreamRequest request, String region) {
        Optional<AwsCredentialsIdentity> own = staticCredentials(deployment);
        if (own.isPresent()) {
            return Future.succeededFuture(signed(request, own.get(), region));
        }
        Optional<BorrowedCredential> notLent = borrowed(deployment);
        if (notLent.isPresent()) {
            return Future.failedFuture(new IllegalStateException("no AWS credentials: " + notLent.get().field() + ": "
                    + notLent.get().reason()));
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
