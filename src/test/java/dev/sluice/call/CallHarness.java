package dev.sluice.call;

import dev.sluice.router.RouterEvents;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.MovableTicker;
import dev.sluice.testing.ScriptedUpstream;
import dev.sluice.testing.TestGateway;
import dev.sluice.time.TimeSource;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The call path driven end to end, as {@code RouterHarness} drives the router: a real gateway
 * on a free loopback port serving one group, {@code chat}, from one deployment, {@code up}, of a {@link ScriptedUpstream},
 * with a fake wall clock ({@link FakeClock}) and a ticker a test may move
 * ({@link MovableTicker}), and every call's {@link CallListener} events written down in order
 * ({@link CallEventLines}). A test scripts the upstream, sends a call, and asserts the lines
 * the call was told and a fact or two of its answer.
 */
final class CallHarness implements AutoCloseable {
    /** The master key of a harness that asks for one. */
    static final String MASTER_KEY = "sk-harness-master";

    private final FakeClock clock = new FakeClock();
    private final MovableTicker ticker = new MovableTicker();
    private final List<CallEventLines> calls = new CopyOnWriteArrayList<>();
    private final ScriptedUpstream upstream;
    private final TestGateway gateway;

    private CallHarness(ScriptedUpstream upstream, String moreYaml) {
        this.upstream = upstream;
        CallListenerFactory recording = new CallListenerFactory() {
            @Override
            CallListener create(String callId) {
                CallEventLines lines = new CallEventLines(callId);
                calls.add(lines);
                return lines;
            }
        };
        String yaml = """
                model_list:
                  - model_name: chat
                    litellm_params: {model: openai/m, api_base: %s, api_key: sk-upstream}
                    model_info: {id: up}
                """.formatted(upstream.baseUrl()) + moreYaml;
        this.gateway = TestGateway.start(yaml, Map.of(), RouterEvents.NONE, new TimeSource(clock, ticker), new Random(7),
                options -> options.withCallListeners(recording));
    }

    /** A gateway over {@code upstream} with no more config than its one group. */
    static CallHarness over(ScriptedUpstream upstream) {
        return over(upstream, "");
    }

    /** A gateway over {@code upstream} with {@code moreYaml}: whole top-level sections, such as {@code router_settings}. */
    static CallHarness over(ScriptedUpstream upstream, String moreYaml) {
        return new CallHarness(upstream, moreYaml);
    }

    /** Sends a chat completion to {@code chat} saying {@code content}, with header name/value pairs. */
    HttpResponse<String> chat(String content, String... headers) {
        return post("""
                {"model":"chat","messages":[{"role":"user","content":"%s"}]}""".formatted(content), headers);
    }

    /** Sends a streamed chat completion to {@code chat} saying {@code content}. */
    HttpResponse<String> chatStream(String content, String... headers) {
        return post("""
                {"model":"chat","stream":true,"messages":[{"role":"user","content":"%s"}]}""".formatted(content), headers);
    }

    /** POSTs {@code json} to the chat completions route. */
    HttpResponse<String> post(String json, String... headers) {
        return gateway.post("/v1/chat/completions", json, headers);
    }

    /** The events of the last call, once it has ended. */
    List<String> lastCall() throws InterruptedException {
        return call(calls.size() - 1);
    }

    /** The events of the {@code index}th call (from 0), once it has ended. */
    List<String> call(int index) throws InterruptedException {
        if (index < 0 || index >= calls.size()) {
            throw new AssertionError("no call " + index + "; the gateway saw " + calls.size());
        }
        return calls.get(index).linesOnceEnded(Duration.ofSeconds(10));
    }

    /** How many calls the gateway has opened. */
    int calls() {
        return calls.size();
    }

    FakeClock clock() {
        return clock;
    }

    MovableTicker ticker() {
        return ticker;
    }

    ScriptedUpstream upstream() {
        return upstream;
    }

    @Override
    public void close() {
        gateway.close();
        upstream.close();
    }
}
