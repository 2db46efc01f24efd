package dev.sluice.call;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.ScriptedUpstream;
import dev.sluice.testing.ScriptedUpstream.Chunk;
import dev.sluice.testing.ScriptedUpstream.End;
import dev.sluice.testing.ScriptedUpstream.Reply;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What one model call is told, in order, from its caller to its answer's end, over a real
 * gateway and a scripted upstream ({@link CallHarness}): a call reaches each stage once, in
 * the pipeline's order, and one that is refused or answered early skips what it never reached.
 */
class CallPathTest {
    private static final String ONE_RETRY = "router_settings:\n  num_retries: 1\n";
    private static final String NO_RETRIES = "router_settings:\n  num_retries: 0\n";

    @Test
    void aServedCallGoesThroughEveryStageOnce() throws Exception {
        try (CallHarness harness = CallHarness.over(ScriptedUpstream.start("up", Reply.completion("hello")))) {
            HttpResponse<String> answer = harness.chat("hi");

            assertThat(harness.lastCall()).containsExactly("caller open", "decoded", "resolved chat", "admitted", "laid-out",
                    "answered up", "routed served chat/up", "writing whole", "settled 200", "ended 200");
            assertThat(answer.statusCode()).isEqualTo(200);
            assertThat(answer.body()).contains("hello");
        }
    }

    @Test
    void aServerErrorIsLaidOutAgainAndServedByTheRetry() throws Exception {
        try (CallHarness harness = CallHarness.over(ScriptedUpstream.start("up", Reply.status(500), Reply.completion("second")),
                ONE_RETRY)) {
            HttpResponse<String> answer = harness.chat("hi");

            assertThat(harness.lastCall()).containsExactly("caller open", "decoded", "resolved chat", "admitted", "laid-out", "laid-out",
                    "answered up", "routed served chat/up after 1 retries", "writing whole", "settled 200", "ended 200");
            assertThat(answer.body()).contains("second");
            assertThat(harness.upstream().calls()).isEqualTo(2);
        }
    }

    @Test
    void aRateLimitIsRetriedLikeAServerError() throws Exception {
        try (CallHarness harness = CallHarness.over(ScriptedUpstream.start("up", Reply.status(429), Reply.completion("after")),
                ONE_RETRY)) {
            HttpResponse<String> answer = harness.chat("hi");

            assertThat(harness.lastCall()).containsExactly("caller open", "decoded", "resolved chat", "admitted", "laid-out", "laid-out",
                    "answered up", "routed served chat/up after 1 retries", "writing whole", "settled 200", "ended 200");
            assertThat(answer.statusCode()).isEqualTo(200);
        }
    }

    @Test
    void aFailedCallEndsBeforeItSettlesAndWritesNoWholeAnswer() throws Exception {
        try (CallHarness harness = CallHarness.over(ScriptedUpstream.always("up", Reply.status(500)), ONE_RETRY)) {
            HttpResponse<String> answer = harness.chat("hi");

            // The error is written by the router's failure path: the answer ends, then the call is accounted.
            assertThat(harness.lastCall()).containsExactly("caller open", "decoded", "resolved chat", "admitted", "laid-out", "laid-out",
                    "routed failed chat/up after 1 retries", "ended 500", "settled 500");
            assertThat(answer.statusCode()).isEqualTo(500);
            assertThat(harness.upstream().calls()).isEqualTo(2);
        }
    }

    @Test
    void aCallWithNoRetriesIsLaidOutOnce() throws Exception {
        try (CallHarness harness = CallHarness.over(ScriptedUpstream.always("up", Reply.status(500)), NO_RETRIES)) {
            HttpResponse<String> answer = harness.chat("hi");

            assertThat(harness.lastCall()).containsExactly("caller open", "decoded", "resolved chat", "admitted", "laid-out",
                    "routed failed chat/up", "ended 500", "settled 500");
            assertThat(harness.upstream().calls()).isEqualTo(1);
            assertThat(answer.statusCode()).isEqualTo(500);
        }
    }

    @Test
    void aStreamIsCommittedInsteadOfWrittenWhole() throws Exception {
        try (CallHarness harness = CallHarness.over(ScriptedUpstream.start("up", Reply.stream(End.COMPLETE,
                Chunk.now(Reply.delta("one")), Chunk.now(Reply.delta(" two") + "data: [DONE]\n\n"))))) {
            HttpResponse<String> answer = harness.chatStream("hi");

            assertThat(harness.lastCall()).containsExactly("caller open", "decoded", "resolved chat", "admitted", "laid-out",
                    "stream-started", "stream-committed", "routed served chat/up", "settled 200", "ended 200");
            assertThat(answer.headers().firstValue("content-type")).hasValueSatisfying(type -> assertThat(type).startsWith("text/event-stream"));
            assertThat(answer.body()).contains("\"one\"", "\" two\"", "data: [DONE]");
        }
    }

    @Test
    void aCallerWithAWrongKeyIsRefusedBeforeItIsKnown() throws Exception {
        try (CallHarness harness = CallHarness.over(ScriptedUpstream.start("up"),
                "general_settings:\n  master_key: " + CallHarness.MASTER_KEY + "\n")) {
            HttpResponse<String> answer = harness.chat("hi", "Authorization", "Bearer sk-wrong");

            assertThat(harness.lastCall()).containsExactly("ended 401");
            assertThat(answer.statusCode()).isEqualTo(401);
            assertThat(harness.upstream().calls()).isZero();
        }
    }

    @Test
    void theMasterKeyIsKnownAsTheAdmin() throws Exception {
        try (CallHarness harness = CallHarness.over(ScriptedUpstream.start("up"),
                "general_settings:\n  master_key: " + CallHarness.MASTER_KEY + "\n")) {
            HttpResponse<String> answer = harness.chat("hi", "Authorization", "Bearer " + CallHarness.MASTER_KEY);

            assertThat(harness.lastCall()).containsExactly("caller admin", "decoded", "resolved chat", "admitted", "laid-out",
                    "answered up", "routed served chat/up", "writing whole", "settled 200", "ended 200");
            assertThat(answer.body()).contains("[up] ok");
        }
    }

    @Test
    void aRepeatedCallIsAnsweredFromTheCacheWithoutRouting() throws Exception {
        try (CallHarness harness = CallHarness.over(ScriptedUpstream.start("up"), "litellm_settings:\n  cache: true\n")) {
            HttpResponse<String> first = harness.chat("hi");
            HttpResponse<String> second = harness.chat("hi");

            assertThat(harness.call(0)).containsExactly("caller open", "decoded", "resolved chat", "admitted", "laid-out",
                    "answered up", "routed served chat/up", "writing whole", "settled 200", "ended 200");
            assertThat(harness.call(1)).containsExactly("caller open", "decoded", "resolved chat", "admitted", "from-cache 200", "ended 200");
            assertThat(second.body()).isEqualTo(first.body());
            assertThat(second.headers().firstValue("x-litellm-cache-key")).isPresent();
            assertThat(harness.upstream().calls()).isEqualTo(1);
        }
    }

    @Test
    void aBodyThatIsNotJsonEndsBeforeItIsDecoded() throws Exception {
        try (CallHarness harness = CallHarness.over(ScriptedUpstream.start("up"))) {
            HttpResponse<String> answer = harness.post("{not json");

            assertThat(harness.lastCall()).containsExactly("caller open", "ended 400");
            assertThat(answer.statusCode()).isEqualTo(400);
        }
    }

    @Test
    void aModelNobodyServesEndsAfterItIsDecoded() throws Exception {
        try (CallHarness harness = CallHarness.over(ScriptedUpstream.start("up"))) {
            HttpResponse<String> answer = harness.post("""
                    {"model":"nope","messages":[{"role":"user","content":"x"}]}""");

            assertThat(harness.lastCall()).containsExactly("caller open", "decoded", "ended 400");
            assertThat(answer.statusCode()).isEqualTo(400);
            assertThat(answer.body()).contains("nope");
            assertThat(harness.upstream().calls()).isZero();
        }
    }

    @Test
    void eachCallHasItsOwnEvents() throws Exception {
        try (CallHarness harness = CallHarness.over(ScriptedUpstream.start("up", Reply.status(500), Reply.completion("b")),
                NO_RETRIES)) {
            harness.chat("a");
            harness.chat("b");

            assertThat(harness.calls()).isEqualTo(2);
            assertThat(List.of(harness.call(0).getLast(), harness.call(1).getLast())).containsExactly("settled 500", "ended 200");
        }
    }
}
