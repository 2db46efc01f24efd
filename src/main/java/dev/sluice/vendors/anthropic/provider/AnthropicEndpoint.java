package dev.sluice.vendors.anthropic.provider;

import dev.sluice.config.Deployment;
import dev.sluice.config.Secret;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Where and how a deployment's Messages API calls go: {@code POST {api_base}/v1/messages}
 * with the key in {@code x-api-key}, the API version Sluice is written against in
 * {@code anthropic-version}, and the {@code anthropic-beta} features asked by the caller's
 * own header and by the deployment's {@code extra_headers}, joined. Every other
 * {@code extra_headers} entry is sent as written.
 */
final class AnthropicEndpoint {
    static final String DEFAULT_API_BASE = "https://api.anthropic.com";
    static final String API_VERSION = "2023-06-01";
    static final String BETA = "anthropic-beta";

    private final Map<String, String> env;

    AnthropicEndpoint(Map<String, String> env) {
        this.env = env;
    }

    /**
     * The Messages URL. An {@code api_base} is taken with or without its {@code /v1}, as LiteLLM
     * users write both; {@code ANTHROPIC_API_BASE} (or {@code ANTHROPIC_BASE_URL}) fills it in.
     */
    String url(Deployment deployment) {
        String base = deployment.params().endpoint().apiBase()
                .or(() -> Optional.ofNullable(env.get("ANTHROPIC_API_BASE")))
                .or(() -> Optional.ofNullable(env.get("ANTHROPIC_BASE_URL")))
                .orElse(DEFAULT_API_BASE).strip();
        while (base.endsWith("/")) {
            base = base.substring(0, base.length() - 1);
        }
        if (base.endsWith("/v1/messages")) {
            return base;
        }
        if (base.endsWith("/v1")) {
            base = base.substring(0, base.length() - 3);
        }
        return base + "/v1/messages";
    }

    Optional<Secret> key(Deployment deployment) {
        return deployment.params().endpoint().apiKey()
                .or(() -> deployment.ambient().variable(env, "ANTHROPIC_API_KEY").filter(k -> !k.isBlank()).map(Secret::new));
    }

    /** The headers of one call; {@code callerHeaders} are the caller's {@code anthropic-*} headers by lower-case name. */
    Map<String, String> headers(Deployment deployment, Map<String, String> callerHeaders) {
        Map<String, String> headers = new LinkedHashMap<>(deploymentHeaders(deployment, callerHeaders));
        key(deployment).ifPresent(k -> headers.put("x-api-key", k.value()));
        headers.putIfAbsent("anthropic-version", API_VERSION);
        return headers;
    }

    /**
     * The deployment's {@code extra_headers} and the {@code anthropic-beta} features of the
     * caller and the deployment, joined: what every host of the Messages API is sent.
     */
    static Map<String, String> deploymentHeaders(Deployment deployment, Map<String, String> callerHeaders) {
        Map<String, String> headers = new LinkedHashMap<>();
        Set<String> betas = new LinkedHashSet<>();
        addBetas(betas, callerHeaders.get(BETA));
        deployment.params().vendor().extraHeaders().forEach((name, value) -> {
            if (name.equalsIgnoreCase(BETA)) {
                addBetas(betas, value);
            } else {
                headers.put(name, value);
            }
        });
        if (!betas.isEmpty()) {
            headers.put(BETA, String.join(",", betas));
        }
        return headers;
    }

    private static void addBetas(Set<String> betas, String header) {
        if (header == null) {
            return;
        }
        for (String beta : header.split(",")) {
            if (!beta.isBlank()) {
                betas.add(beta.strip());
            }
        }
    }
}
