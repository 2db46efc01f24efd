package dev.sluice.ops.callbacks;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.testing.FakeClock;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

/** Call records for the callbacks' unit tests: a served chat call and a failed one, at fixed instants. */
final class Records {
    static final Instant START = FakeClock.START.plusMillis(250);
    static final String KEY_HASH = "a".repeat(64);

    private Records() {}

    static CallRecord served(String callId) {
        return new CallRecord(callId, request("user secret sk-live-abcdef123456"), new CallRecord.Served("dep-1", "openai",
                "gpt-4o-mini", "http://upstream.example:8000/v1"),
                new CallRecord.Result(true, 200, 12, 5, 0.00042, "gpt-4o-mini-2024", List.of("stop"),
                        json("{\"id\":\"c\",\"model\":\"gpt-4o-mini-2024\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
                                + "\"content\":\"the answer, with Bearer abc.def.ghi in it\"},\"finish_reason\":\"stop\"}]}"), null),
                new CallRecord.Timing(START, START.plusMillis(400), START.plusMillis(900)),
                new CallRecord.Key(KEY_HASH, "team-key", "team-1", "Team One", "user-7"), false, null);
    }

    static CallRecord failed(String callId) {
        return new CallRecord(callId, request("hello"), new CallRecord.Served("dep-2", "azure", "gpt-4o", null),
                new CallRecord.Result(false, 429, 0, 0, 0, null, List.of(), null,
                        new CallRecord.Error("answered 429: quota exceeded for api_key=sk-azure-0123456789", "RateLimitError",
                                "429", "azure")),
                new CallRecord.Timing(START, START.plusMillis(300), START.plusMillis(300)), CallRecord.Key.NONE, false, null);
    }

    private static CallRecord.Request request(String prompt) {
        ObjectNode parameters = JsonNodeFactory.instance.objectNode().put("temperature", 0.3).put("max_tokens", 64)
                .put("top_p", 0.9);
        return new CallRecord.Request("acompletion", "chat", false, "chat", "end-user-1", List.of("team:blue"), parameters,
                json("[{\"role\":\"system\",\"content\":\"be brief\"},{\"role\":\"user\",\"content\":\"" + prompt + "\"}]"));
    }

    static com.fasterxml.jackson.databind.JsonNode json(String text) {
        try {
            return Json.parse(text.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
