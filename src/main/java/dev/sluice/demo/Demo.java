package dev.sluice.demo;

import dev.sluice.config.ConfigException;
import dev.sluice.config.ConfigLoader;
import dev.sluice.config.SluiceConfig;
import dev.sluice.mock.MockMode;
import dev.sluice.mock.MockOptions;
import dev.sluice.mock.MockUpstream;
import dev.sluice.provider.Providers;
import java.util.List;
import java.util.Map;

/**
 * The built-in demo: three mock upstreams in this process and a config over them with two
 * model groups and one fallback, so a newcomer can curl a working gateway with no setup.
 * The config goes through the same loader as a user's file.
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
        MockUpstream backup = MockUpstream.start(MockOptions.defaults("demo-backup", MockMode.OK));
        List<MockUpstream> upstreams = List.of(east, west, backup);
        try {
            return new Demo(upstreams, ConfigLoader.parse(yaml(east, west, backup), Map.of(), Providers.knownPrefixes()));
        } catch (ConfigException | RuntimeException e) {
            upstreams.forEach(MockUpstream::close);
            throw e;
        }
    }

    static String yaml(MockUpstream east, MockUpstream west, MockUpstream backup) {
        return """
                # Sluice demo: two groups over three mock upstreams in this process.
                model_list:
                  - model_name: demo-chat
                    litellm_params:
                      model: openai/demo-east-model
                      api_base: %s
                      api_key: mock-key
                      weight: 3
                    model_info: {id: demo-east}
                  - model_name: demo-chat
                    litellm_params:
                      model: openai/demo-west-model
                      api_base: %s
                      api_key: mock-key
                      weight: 1
                    model_info: {id: demo-west}
                  - model_name: demo-backup
                    litellm_params:
                      model: openai/demo-backup-model
                      api_base: %s
                      api_key: mock-key
                    model_info: {id: demo-backup}
                router_settings:
                  routing_strategy: simple-shuffle
                  fallbacks:
                    - demo-chat: [demo-backup]
                general_settings:
                  master_key: %s
                """.formatted(east.baseUrl(), west.baseUrl(), backup.baseUrl(), MASTER_KEY);
    }

    public SluiceConfig config() {
        return config;
    }

    /** What to print once the gateway listens on {@code port}: the groups and a curl to try. */
    public String instructions(int port) {
        return """

                Sluice demo is running on port %d.
                  model groups: demo-chat (demo-east weight 3, demo-west weight 1), demo-backup (demo-chat's fallback)
                  master key:   %s

                Try it:
                  curl -s http://127.0.0.1:%d/v1/chat/completions \\
                    -H 'Authorization: Bearer %s' -H 'Content-Type: application/json' \\
                    -d '{"model":"demo-chat","messages":[{"role":"user","content":"Hello, Sluice"}]}'

                Streaming: add "stream": true to the body. Stop with Ctrl-C.
                """.formatted(port, MASTER_KEY, port, MASTER_KEY);
    }

    @Override
    public void close() {
        upstreams.forEach(MockUpstream::close);
    }
}
