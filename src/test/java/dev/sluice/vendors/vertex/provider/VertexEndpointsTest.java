package dev.sluice.vendors.vertex.provider;

import static dev.sluice.vendors.gemini.provider.GeminiProviderTest.deployment;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.Deployment;
import dev.sluice.time.TimeSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where a {@code vertex_ai/} deployment's calls go. */
class VertexEndpointsTest {

    @Test
    void theRegionalHostCarriesProjectLocationAndPublisherModel() {
        Deployment d = deployment("model: vertex_ai/gemini-2.0-flash, vertex_project: proj, vertex_location: europe-west4");
        assertThat(new VertexEndpoints(Map.of()).publisherModel(d, "google", "generateContent")).isEqualTo(
                "https://europe-west4-aiplatform.googleapis.com/v1/projects/proj/locations/europe-west4/publishers/google/models/"
                        + "gemini-2.0-flash:generateContent");
    }

    @Test
    void theGlobalLocationHasTheHostWithoutARegion() {
        Deployment d = deployment("model: vertex_ai/gemini-2.5-pro, vertex_project: proj, vertex_location: global");
        assertThat(new VertexEndpoints(Map.of()).publisherModel(d, "google", "streamGenerateContent?alt=sse")).isEqualTo(
                "https://aiplatform.googleapis.com/v1/projects/proj/locations/global/publishers/google/models/"
                        + "gemini-2.5-pro:streamGenerateContent?alt=sse");
    }

    @Test
    void theEnvironmentFillsProjectAndLocationAndTheLocationDefaultsAsLiteLlms() {
        Deployment d = deployment("model: vertex_ai/gemini-2.0-flash");
        assertThat(new VertexEndpoints(Map.of("VERTEXAI_PROJECT", "envproj", "VERTEXAI_LOCATION", "asia-northeast1"))
                .publisherModel(d, "google", "predict"))
                .startsWith("https://asia-northeast1-aiplatform.googleapis.com/v1/projects/envproj/locations/asia-northeast1/");
        assertThat(new VertexEndpoints(Map.of("VERTEXAI_PROJECT", "envproj")).location(d)).isEqualTo("us-central1");
    }

    @Test
    void apiBaseReplacesTheHostAndAProjectIsRequired() {
        Deployment d = deployment("model: vertex_ai/gemini-2.0-flash, vertex_project: p, api_base: 'http://127.0.0.1:9/'");
        assertThat(new VertexEndpoints(Map.of()).publisherModel(d, "google", "generateContent"))
                .startsWith("http://127.0.0.1:9/v1/projects/p/locations/us-central1/");
        assertThat(new VertexProvider(Map.of(), TimeSource.system().clock(), new dev.sluice.catalog.BundledModelCatalog()).misconfiguration(deployment("model: vertex_ai/gemini-2.0-flash")))
                .hasValueSatisfying(problem -> assertThat(problem).startsWith("vertex_project: missing"));
    }

    @Test
    void aKeyFilesProjectIsReadOnceAndGoogleCloudProjectComesLast(@TempDir Path dir) throws IOException {
        Path key = dir.resolve("sa.json");
        Files.writeString(key, "{\"type\":\"service_account\",\"project_id\":\"file-proj\"}");
        Deployment d = deployment("model: vertex_ai/gemini-2.0-flash, vertex_credentials: '\"" + key + "\"'");
        VertexEndpoints endpoints = new VertexEndpoints(Map.of("GOOGLE_CLOUD_PROJECT", "gcp-proj"));
        assertThat(endpoints.project(d)).as("a quoted path is a path").hasValue("file-proj");
        Files.delete(key);
        assertThat(endpoints.project(d)).as("read once").hasValue("file-proj");

        Deployment unreadable = deployment("model: vertex_ai/gemini-2.0-flash, vertex_credentials: '" + dir.resolve("none.json") + "'");
        assertThat(endpoints.project(unreadable)).hasValue("gcp-proj");
        assertThat(new VertexEndpoints(Map.of("VERTEXAI_PROJECT", "vx", "GOOGLE_CLOUD_PROJECT", "gcp-proj")).project(unreadable))
                .hasValue("vx");
        assertThat(new VertexEndpoints(Map.of()).project(unreadable)).isEmpty();
    }
}
