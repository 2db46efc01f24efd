package dev.sluice.vendors.vertex.provider;

import dev.sluice.config.Deployment;
import dev.sluice.config.Secret;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Where a Vertex AI deployment's models are: the project ({@code vertex_project}, else
 * {@code VERTEXAI_PROJECT}, else the {@code project_id} of the service-account key in
 * {@code vertex_credentials}, inline or in a file read once, else {@code GOOGLE_CLOUD_PROJECT}), the
 * location ({@code vertex_location}, else {@code VERTEXAI_LOCATION}, else {@code us-central1}
 * as in LiteLLM) and the host ({@code https://LOCATION-aiplatform.googleapis.com}, or
 * {@code https://aiplatform.googleapis.com} for {@code global}; {@code api_base} replaces it).
 * Every model family on Vertex (Google's Gemini, Anthropic's Claude) is reached through
 * {@link #publisherModel}.
 */
public final class VertexEndpoints {
    public static final String DEFAULT_LOCATION = "us-central1";

    private final Map<String, String> env;
    /** The project of each configured key, so a key file is read once rather than on every call. */
    private final ConcurrentMap<String, Optional<String>> keyProjects = new ConcurrentHashMap<>();

    public VertexEndpoints(Map<String, String> env) {
        this.env = env;
    }

    public Optional<String> project(Deployment deployment) {
        return deployment.params().vendor().vertexProject()
                .or(() -> Optional.ofNullable(env.get("VERTEXAI_PROJECT")))
                .or(() -> keyProject(deployment))
                .or(() -> Optional.ofNullable(env.get("GOOGLE_CLOUD_PROJECT")));
    }

    public String location(Deployment deployment) {
        return deployment.params().vendor().vertexLocation()
                .or(() -> Optional.ofNullable(env.get("VERTEXAI_LOCATION")))
                .orElse(DEFAULT_LOCATION);
    }

    /** The scheme and host calls go to, without a trailing slash. */
    public String host(Deployment deployment) {
        Optional<String> base = deployment.params().endpoint().apiBase();
        if (base.isPresent()) {
            String b = base.get();
            return b.endsWith("/") ? b.substring(0, b.length() - 1) : b;
        }
        String location = location(deployment);
        return location.equals("global") ? "https://aiplatform.googleapis.com" : "https://" + location + "-aiplatform.googleapis.com";
    }

    /**
     * {@code {host}/v1/projects/P/locations/L/publishers/PUBLISHER/models/MODEL:METHOD}.
     *
     * @param publisher {@code google} for Gemini, {@code anthropic} for Claude
     * @param method    e.g. {@code generateContent}, {@code streamGenerateContent?alt=sse}, {@code rawPredict}
     */
    public String publisherModel(Deployment deployment, String publisher, String method) {
        String project = project(deployment).orElseThrow(() -> new IllegalStateException(MISSING_PROJECT));
        return host(deployment) + "/v1/projects/" + encode(project) + "/locations/" + encode(location(deployment))
                + "/publishers/" + publisher + "/models/" + encode(deployment.params().providerModel()) + ":" + method;
    }

    static final String MISSING_PROJECT = "vertex_project: missing (expected: the Google Cloud project, here, in"
            + " VERTEXAI_PROJECT, as project_id of the service-account key in vertex_credentials or in GOOGLE_CLOUD_PROJECT)";

    /** The key's project; none for a key the deployment may not use (a file it may not read is never opened). */
    private Optional<String> keyProject(Deployment deployment) {
        if (VertexCredentials.borrowed(deployment).isPresent()) {
            return Optional.empty();
        }
        return deployment.params().vendor().vertexCredentials().map(Secret::value)
                .flatMap(value -> keyProjects.computeIfAbsent(value, VertexKey::projectId));
    }

    private static String encode(String segment) {
        return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
