package dev.sluice.vendors.vertex.provider;

import static dev.sluice.vendors.gemini.provider.GeminiProviderTest.deployment;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.Deployment;
import dev.sluice.testing.FakeClock;
import dev.sluice.vendors.UpstreamRequest;
import dev.sluice.vendors.gemini.wire.ToolCallIds;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Vertex adapter's tokens against a real token endpoint: fetched once, reused until five
 * minutes before they expire, refreshed after, and always what {@code key()} returns so that
 * it is masked in what is relayed.
 */
class VertexTokensTest {
    private TokenServer tokens;
    private FakeClock clock;
    private VertexProvider provider;
    private Deployment deployment;

    @BeforeEach
    void start() throws Exception {
        tokens = new TokenServer();
        // The token's expiry is stamped by Google's library with the real clock: start the fake one there.
        clock = new FakeClock(Instant.now());
        provider = new VertexProvider(Map.of(), clock, ToolCallIds.from(RandomGenerator.of("L64X128MixRandom")),
                new dev.sluice.catalog.BundledModelCatalog());
        deployment = deployment("model: vertex_ai/gemini-2.0-flash, vertex_project: p, vertex_credentials: '"
                + tokens.serviceAccountJson("p") + "'");
    }

    @AfterEach
    void stop() {
        tokens.close();
    }

    private UpstreamRequest authorize() {
        return provider.authorize(deployment, new UpstreamRequest("http://127.0.0.1:9/", Map.of("x-extra", "1"), new byte[0]))
                .await();
    }

    @Test
    void theTokenIsTheBearerAndTheKeyThatIsMasked() {
        assertThat(provider.key(deployment)).isEmpty();
        UpstreamRequest authorized = authorize();
        assertThat(authorized.headers()).containsEntry("Authorization", "Bearer " + TokenServer.ACCESS_TOKEN)
                .containsEntry("x-extra", "1");
        assertThat(provider.key(deployment)).hasValueSatisfying(k -> assertThat(k.value()).isEqualTo(TokenServer.ACCESS_TOKEN));
    }

    @Test
    void aTokenIsReusedUntilFiveMinutesBeforeItExpiresThenRefreshed() {
        authorize();
        clock.advance(Duration.ofMinutes(54));
        authorize();
        assertThat(tokens.exchanges()).hasSize(1);
        clock.advance(Duration.ofMinutes(2)); // 56 minutes: within five minutes of the hour's expiry
        authorize();
        assertThat(tokens.exchanges()).hasSize(2);
    }

    @Test
    void aDeploymentNotLentTheGatewaysFilesGetsNoTokenFromAKeyFileNotEvenOneAlreadyFetched(@org.junit.jupiter.api.io.TempDir
            java.nio.file.Path dir) throws Exception {
        java.nio.file.Path file = java.nio.file.Files.writeString(dir.resolve("sa.json"), tokens.serviceAccountJson("p"));
        Deployment operators = deployment("model: vertex_ai/gemini-2.0-flash, vertex_project: p, vertex_credentials: " + file);
        UpstreamRequest request = new UpstreamRequest("http://127.0.0.1:9/", Map.of(), new byte[0]);
        assertThat(provider.authorize(operators, request).await().headers()).containsKey("Authorization");

        Deployment lentNothing = operators.withAmbient(dev.sluice.config.AmbientCredentials.NONE);
        io.vertx.core.Future<UpstreamRequest> refused = provider.authorize(lentNothing, request);
        assertThat(refused.failed()).isTrue();
        assertThat(refused.cause().getMessage()).contains("litellm_params.vertex_credentials: a file path")
                .doesNotContain(dir.toString());
        assertThat(provider.key(lentNothing)).as("nothing of the operator's to mask, nor to send").isEmpty();
        assertThat(provider.borrowed(lentNothing)).isPresent();
        Deployment noKey = deployment("model: vertex_ai/gemini-2.0-flash, vertex_project: p")
                .withAmbient(dev.sluice.config.AmbientCredentials.NONE);
        assertThat(provider.authorize(noKey, request).cause().getMessage()).contains("Application Default Credentials");
        assertThat(tokens.exchanges()).hasSize(1);
    }
}
