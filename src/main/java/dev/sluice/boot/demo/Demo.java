package dev.sluice.boot.demo;

import dev.sluice.config.ConfigException;
import dev.sluice.config.ConfigLoader;
import dev.sluice.config.SluiceConfig;
import dev.sluice.vendors.Providers;
import dev.sluice.vendors.mock.MockApi;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import java.util.List;
import java.util.Map;

/**
 * The built-in demo: four mock upstreams in this process and a config over them with three
 * model groups, so a newcomer can curl a working gateway with no setup: two OpenAI-shaped
 * groups (one of them failing every call) fall back to an Anthropic-shaped one, so a call
 * crosses from one vendor's API to another's and comes back in OpenAI's shape. The config
 * goes through the same loader as a user's file.
 */
public final class Demo implements AutoCloseable {
    /** The demo's master key, printed with the ready-made curl. */
    public static final String MASTER_KEY = "sk-sluice-demo";

    private final List<MockUpstream> upstreams;
    private final SluiceConfig config;

    private Demo(List<MockUpstream> upstreams, SluiceConfig config) {
        this.upstreams = upstreams;
        this.config = config;
    }

    /** Starts the mock upstreams on free loopback ports and builds the config over them. */
    public static Demo start() throws ConfigException {
        MockUpstream east = MockUpstream.start(MockOptions.defaults("demo-east", MockMode.OK));
        MockUpstream west = MockUpstream.start(MockOptions.defaults("demo-west", MockMode.OK));
        MockUpstream flaky = MockUpstream.start(MockOptions.defaults("demo-flaky", MockMode.FAIL));
        MockUpstream claude = MockUpstream.start(MockOptions.defaults("demo-claude", MockMode.OK).withApi(MockApi.ANTHROPIC));
        List<MockUpstream> upstreams = List.of(east, west, flaky, claude);
        try {
            return new Demo(upstreams, ConfigLoader.parse(yaml(upstreams), Map.of(), Providers.knownPrefixes()));
        } catch (ConfigException | RuntimeException e) {
            upstreams.forEach(MockUpstream::close);
            throw e;
        }
    }

    /** The demo's config over east, west, flaky and claude, in that order. */
    static String yaml(List<MockUpstream> upstreams) {
        return """
                # Sluice demo: three groups over four mock upstreams in this process, priced
                # as their namesakes would be so the admin UI's usage and costs show something.
                model_list:
                  - model_name: demo-chat
                    litellm_params:
                      model: openai/demo-east-model
                      api_base: %s
                      api_key: mock-key
                      input_cost_per_token: 0.0000025
                      output_cost_per_token: 0.00001
                      weight: 3
                    model_info: {id: demo-east}
                  - model_name: demo-chat
                    litellm_params:
                      model: openai/demo-west-model
                      api_base: %s
                      api_key: mock-key
                      input_cost_per_token: 0.0000025
                      output_cost_per_token: 0.00001
                      weight: 1
                    model_info: {id: demo-west}
                  - model_name: demo-flaky
                    litellm_params:
                      model: openai/demo-flaky-model
                      api_base: %s
                      api_key: mock-key
                      input_cost_per_token: 0.0000025
                      output_cost_per_token: 0.00001
                    model_info: {id: demo-flaky}
                  - model_name: demo-claude
                    litellm_params:
                      model: anthropic/claude-demo
                      api_base: %s
                      api_key: mock-key
                      input_cost_per_token: 0.000003
                      output_cost_per_token: 0.000015
                    model_info: {id: demo-claude}
                router_settings:
                  routing_strategy: simple-shuffle
                  fallbacks:
                    - demo-chat: [demo-claude]
                    - demo-flaky: [demo-claude]
                general_settings:
                  master_key: %s
                """.formatted(upstreams.get(0).baseUrl(), upstreams.get(1).baseUrl(), upstreams.get(2).baseUrl(),
                upstreams.get(3).baseUrl(), MASTER_KEY);
    }

    public SluiceConfig config() {
        return config;
    }

    /** What to print once the gateway listens on {@code port}: the groups and a curl to try. */
    public String instructions(int port) {
        return """

                Sluice demo is running on port %d.
                  model groups: demo-chat   (OpenAI-shaped: demo-east weight 3, demo-west weight 1)
                                demo-flaky  (OpenAI-shaped: every call fails with a 500)
                                demo-claude (Anthropic-shaped: the fallback of both)
                  master key:   %s

                Try it:
                  curl -s http://127.0.0.1:%d/v1/chat/completions \\
                    -H 'Authorization: Bearer %s' -H 'Content-Type: application/json' \\
                    -d '{"model":"demo-chat","messages":[{"role":"user","content":"Hello, Sluice"}]}'

                Cross-vendor fallback: ask demo-flaky and see demo-claude answer in OpenAI's shape
                (curl -i shows x-litellm-model-group: demo-claude, x-litellm-attempted-fallbacks: 1):
                  curl -si http://127.0.0.1:%d/v1/chat/completions \\
                    -H 'Authorization: Bearer %s' -H 'Content-Type: application/json' \\
                    -d '{"model":"demo-flaky","messages":[{"role":"user","content":"Hello, Sluice"}]}'

                Streaming: add "stream": true to the body.

                Admin UI: http://127.0.0.1:%d/ui (sign in with the master key). Stop with Ctrl-C.
                """.formatted(port, MASTER_KEY, port, MASTER_KEY, port, MASTER_KEY, port);
    }

    @Override
    public void close() {
        upstreams.forEach(MockUpstream::close);
    }
}
