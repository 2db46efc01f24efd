package dev.sluice.vendors.mock;

import dev.sluice.vendors.anthropic.mock.AnthropicMockHandler;
import dev.sluice.vendors.bedrock.mock.BedrockMockHandler;
import dev.sluice.vendors.gemini.mock.GeminiMockHandler;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import java.time.Clock;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The vendor API a mock speaks: its paths, its request and answer bodies, its stream framing
 * and its error bodies. Every API fails in the same {@link MockMode}s, each in the words and
 * status that vendor uses for it.
 */
public enum MockApi {
    OPENAI("OpenAI's and Azure OpenAI's chat completions, completions and embeddings, and OpenAI's Responses API"),
    BEDROCK("Amazon Bedrock Runtime: Converse, ConverseStream (AWS event stream), InvokeModel embeddings, and InvokeModel (whole and streamed) for Claude models"),
    ANTHROPIC("Anthropic's Messages API: POST /v1/messages, whole and streamed, and count_tokens"),
    GEMINI("Gemini's generateContent, streams and embeddings, on Google AI Studio's and Vertex AI's paths");

    private final String summary;

    MockApi(String summary) {
        this.summary = summary;
    }

    /** What one mock's handler is built from. */
    public record Parts(Vertx vertx, MockOptions options, MockModeSchedule schedule, MockLedger ledger, Clock clock) {}

    /** The handler that answers every request of a mock speaking {@code parts.options().api()}. */
    static Handler<HttpServerRequest> handler(Parts parts) {
        return switch (parts.options().api()) {
            case OPENAI -> new MockHandler(parts.vertx(), parts.options(), parts.schedule(), parts.ledger(), parts.clock());
            case BEDROCK -> new BedrockMockHandler(parts);
            case ANTHROPIC -> new AnthropicMockHandler(parts);
            case GEMINI -> new GeminiMockHandler(parts);
        };
    }

    /** The name used on the command line, e.g. {@code anthropic}. */
    public String cliName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public String summary() {
        return summary;
    }

    /** Reads a command-line name, in any case; the exception names the value and the choices. */
    public static MockApi fromCliName(String name) {
        for (MockApi api : values()) {
            if (api.cliName().equalsIgnoreCase(name)) {
                return api;
            }
        }
        throw new IllegalArgumentException("unknown api '" + name + "' (expected one of: " + cliNames() + ")");
    }

    public static String cliNames() {
        return Arrays.stream(values()).map(MockApi::cliName).collect(Collectors.joining(", "));
    }
}
