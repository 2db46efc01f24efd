package dev.sluice.vendors.bedrock.provider;

import dev.sluice.config.Deployment;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;

/**
 * Where a Bedrock deployment is called: its region ({@code aws_region_name}, else
 * {@code AWS_REGION_NAME}, {@code AWS_REGION} or {@code AWS_DEFAULT_REGION} from the
 * environment), its runtime endpoint ({@code aws_bedrock_runtime_endpoint}, else {@code api_base},
 * else {@code https://bedrock-runtime.REGION.amazonaws.com}) and the model id in the path.
 */
final class BedrockEndpoint {
    private static final String CONVERSE_ROUTE = "converse/";
    private static final String INVOKE_ROUTE = "invoke/";

    private final Map<String, String> env;

    BedrockEndpoint(Map<String, String> env) {
        this.env = env;
    }

    Optional<String> region(Deployment deployment) {
        return deployment.params().vendor().awsRegionName()
                .or(() -> variable("AWS_REGION_NAME"))
                .or(() -> variable("AWS_REGION"))
                .or(() -> variable("AWS_DEFAULT_REGION"));
    }

    /** The runtime endpoint without a trailing slash; empty when neither it nor a region is known. */
    Optional<String> base(Deployment deployment) {
        return deployment.params().vendor().awsBedrockRuntimeEndpoint()
                .or(() -> deployment.params().endpoint().apiBase())
                .or(() -> region(deployment).map(region -> "https://bedrock-runtime." + region + ".amazonaws.com"))
                .map(base -> base.endsWith("/") ? base.substring(0, base.length() - 1) : base);
    }

    /**
     * The model id, inference profile or ARN: {@code bedrock/converse/MODEL}, LiteLLM's
     * {@code bedrock/invoke/MODEL} and {@code bedrock/MODEL} all name MODEL, and chat with any of
     * them goes through Converse, which every Bedrock chat model answers; only a Messages API
     * caller of a Claude model goes to InvokeModel ({@link BedrockClaude}), whichever the route.
     */
    static String modelId(Deployment deployment) {
        String model = deployment.params().providerModel();
        for (String route : new String[] {CONVERSE_ROUTE, INVOKE_ROUTE}) {
            if (model.startsWith(route)) {
                return model.substring(route.length());
            }
        }
        return model;
    }

    /** {@code BASE/model/ID/action}, the id percent-encoded whole (an ARN's {@code :} and {@code /} included). */
    String url(Deployment deployment, String action) {
        String base = base(deployment).orElseThrow(() -> new IllegalStateException("aws_region_name: missing"));
        return base + "/model/" + URLEncoder.encode(modelId(deployment), StandardCharsets.UTF_8).replace("+", "%20") + "/" + action;
    }

    private Optional<String> variable(String name) {
        return Optional.ofNullable(env.get(name)).filter(value -> !value.isBlank());
    }
}
