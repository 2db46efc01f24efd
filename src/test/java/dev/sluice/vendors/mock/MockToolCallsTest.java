package dev.sluice.vendors.mock;

import static dev.sluice.vendors.mock.UpstreamClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The OpenAI mock's tool calls on the wire: whole and streamed, a named tool, {@code none}, and the answer to tool results. */
class MockToolCallsTest {

    /** 50 characters; the mock echoes the first 40: "What is the weather in Paris this weeken". */
    private static final String ASKED = "What is the weather in Paris this weekend, please?";
    private static final String TOOLS = """
            "tools":[{"type":"function","function":{"name":"get_weather","parameters":{"type":"object"}}},
                     {"type":"function","function":{"name":"get_time"}}]""";
    private static final String ARGUMENTS = "{\"text\":\"What is the weather in Paris this weeken\"}";

    @RegisterExtension
    final MockUpstreams mocks = new MockUpstreams();
    private final UpstreamClient client = new UpstreamClient();

    private static String ask(String extra) {
        return "{\"model\":\"gpt-4o\",\"messages\":[{\"role\":\"user\",\"content\":\"" + ASKED + "\"}]," + TOOLS + extra + "}";
    }

    @Test
    void givenToolsTheChatCallsTheFirstOneWithWhatTheUserSaid() {
        MockUpstream mock = mocks.start("primary", MockMode.OK);

        JsonNode body = json(client.post(mock, "/v1/chat/completions", ask("")));

        assertThat(body.path("object").asText()).isEqualTo("chat.completion");
        assertThat(body.path("choices").path(0)).isEqualTo(json("""
                {"index":0,"message":{"role":"assistant","content":null,"tool_calls":[
                  {"id":"call_mock_1","type":"function","function":{"name":"get_weather","arguments":%s}}]},
                 "logprobs":null,"finish_reason":"tool_calls"}""".formatted(UpstreamClient.quote(ARGUMENTS))));
        // The prompt's 50 characters -> 13 tokens; the 51 characters of the arguments -> 13.
        assertThat(body.path("usage")).isEqualTo(json("{\"prompt_tokens\":13,\"completion_tokens\":13,\"total_tokens\":26}"));
    }

    @Test
    void toolChoiceNamingAToolCallsThatOne() {
        MockUpstream mock = mocks.start("primary", MockMode.OK);

        JsonNode call = json(client.post(mock, "/v1/chat/completions",
                ask(",\"tool_choice\":{\"type\":\"function\",\"function\":{\"name\":\"get_time\"}}")))
                .at("/choices/0/message/tool_calls/0");

        assertThat(call.at("/function/name").asText()).isEqualTo("get_time");
        assertThat(call.at("/function/arguments").asText()).isEqualTo(ARGUMENTS);
    }

    @Test
    void requiredAndAutoCallTheFirstToolAndNoneAnswersText() {
        MockUpstream mock = mocks.start("primary", MockMode.OK);

        JsonNode required = json(client.post(mock, "/v1/chat/completions", ask(",\"tool_choice\":\"required\"")));
        JsonNode auto = json(client.post(mock, "/v1/chat/completions", ask(",\"tool_choice\":\"auto\"")));
        JsonNode none = json(client.post(mock, "/v1/chat/completions", ask(",\"tool_choice\":\"none\"")));

        assertThat(required.at("/choices/0/message/tool_calls/0/function/name").asText()).isEqualTo("get_weather");
        assertThat(required.at("/choices/0/message/tool_calls/0/id").asText()).isEqualTo("call_mock_1");
        assertThat(auto.at("/choices/0/message/tool_calls/0/id").asText()).isEqualTo("call_mock_2");
        assertThat(none.at("/choices/0/message").has("tool_calls")).isFalse();
        assertThat(none.at("/choices/0/message/content").asText()).isEqualTo("[primary] you said: What is the weather in Paris this weeken");
        assertThat(none.at("/choices/0/finish_reason").asText()).isEqualTo("stop");
    }

    @Test
    void onlyFunctionToolsAreCalled() {
        MockUpstream mock = mocks.start("primary", MockMode.OK);

        JsonNode body = json(client.post(mock, "/v1/chat/completions", """
                {"model":"m","messages":[{"role":"user","content":"hi"}],
                 "tools":[{"type":"custom","custom":{"name":"grammar"}}]}"""));

        assertThat(body.at("/choices/0/message/content").asText()).isEqualTo("[primary] you said: hi");
    }

    @Test
    void aToolMessageLastIsAnsweredWithWhatTheToolSaid() {
        MockUpstream mock = mocks.start("primary", MockMode.OK);

        JsonNode body = json(client.post(mock, "/v1/chat/completions", """
                {"model":"gpt-4o","messages":[{"role":"user","content":"%s"},
                  {"role":"assistant","content":null,"tool_calls":[{"id":"call_mock_1","type":"function",
                    "function":{"name":"get_weather","arguments":"{}"}}]},
                  {"role":"tool","tool_call_id":"call_mock_1","content":"sunny, 24 degrees"}],%s}""".formatted(ASKED, TOOLS)));

        JsonNode choice = body.path("choices").path(0);
        assertThat(choice.path("message")).isEqualTo(json("{\"role\":\"assistant\",\"content\":\"[primary] the tool said: sunny, 24 degrees\"}"));
        assertThat(choice.path("finish_reason").asText()).isEqualTo("stop");
        // 50 + 17 prompt characters -> 17 tokens; the 42 characters of the answer -> 11.
        assertThat(body.path("usage")).isEqualTo(json("{\"prompt_tokens\":17,\"completion_tokens\":11,\"total_tokens\":28}"));
    }

    @Test
    void severalToolMessagesLastAreJoinedAndEchoedUpToFortyCharacters() {
        MockUpstream mock = mocks.start("primary", MockMode.OK);

        JsonNode body = json(client.post(mock, "/v1/chat/completions", """
                {"model":"m","messages":[{"role":"user","content":"two calls"},
                  {"role":"tool","tool_call_id":"a","content":"first result, "},
                  {"role":"tool","tool_call_id":"b","content":[{"type":"text","text":"second result, long enough to be cut"}]}]}"""));

        assertThat(body.at("/choices/0/message/content").asText())
                .isEqualTo("[primary] the tool said: first result, second result, long enough");
    }

    @Test
    void aStreamedToolCallArrivesAsOpenAiSendsIt() {
        MockUpstream mock = mocks.start("primary", MockMode.OK);

        List<String> data = dataLines(client.post(mock, "/v1/chat/completions",
                ask(",\"stream\":true,\"stream_options\":{\"include_usage\":true}")).body());

        assertThat(data).hasSize(7).last().isEqualTo("[DONE]");
        List<JsonNode> chunks = data.subList(0, 6).stream().map(UpstreamClient::json).toList();
        assertThat(chunks).allSatisfy(chunk -> {
            assertThat(chunk.path("id").asText()).isEqualTo("chatcmpl-mock-1");
            assertThat(chunk.path("object").asText()).isEqualTo("chat.completion.chunk");
        });
        assertThat(chunks.get(0).at("/choices/0/delta")).isEqualTo(json("{\"role\":\"assistant\",\"content\":null}"));
        assertThat(chunks.get(1).at("/choices/0/delta")).isEqualTo(json("""
                {"tool_calls":[{"index":0,"id":"call_mock_1","type":"function","function":{"name":"get_weather","arguments":""}}]}"""));
        assertThat(chunks.subList(2, 4)).allSatisfy(chunk -> {
            JsonNode toolCall = chunk.at("/choices/0/delta/tool_calls/0");
            assertThat(toolCall.path("index").asInt(-1)).isZero();
            assertThat(toolCall.has("id")).isFalse();
            assertThat(toolCall.at("/function/arguments").asText()).isNotEmpty();
        });
        assertThat(chunks.subList(2, 4).stream().map(chunk -> chunk.at("/choices/0/delta/tool_calls/0/function/arguments").asText())
                .collect(Collectors.joining())).isEqualTo(ARGUMENTS);
        assertThat(chunks.subList(0, 4)).allSatisfy(chunk -> assertThat(chunk.at("/choices/0/finish_reason").isNull()).isTrue());
        assertThat(chunks.get(4).at("/choices/0/finish_reason").asText()).isEqualTo("tool_calls");
        assertThat(chunks.get(4).at("/choices/0/delta").isEmpty()).isTrue();
        assertThat(chunks.get(5).path("choices")).isEmpty();
        assertThat(chunks.get(5).path("usage")).isEqualTo(json("{\"prompt_tokens\":13,\"completion_tokens\":13,\"total_tokens\":26}"));
    }

    @Test
    void aStreamedAnswerToAToolIsTextThatStops() {
        MockUpstream mock = mocks.start("primary", MockMode.OK);

        List<String> data = dataLines(client.post(mock, "/v1/chat/completions", """
                {"model":"m","stream":true,"messages":[{"role":"user","content":"weather?"},
                  {"role":"tool","tool_call_id":"call_mock_1","content":"sunny"}],%s}""".formatted(TOOLS)).body());

        List<JsonNode> chunks = data.subList(0, data.size() - 1).stream().map(UpstreamClient::json).toList();
        assertThat(chunks.stream().map(chunk -> chunk.at("/choices/0/delta/content").asText(""))
                .collect(Collectors.joining())).isEqualTo("[primary] the tool said: sunny");
        assertThat(chunks).noneSatisfy(chunk -> assertThat(chunk.at("/choices/0/delta").has("tool_calls")).isTrue());
        assertThat(chunks.getLast().at("/choices/0/finish_reason").asText()).isEqualTo("stop");
    }

    private static List<String> dataLines(String body) {
        return body.lines().filter(line -> line.startsWith("data: ")).map(line -> line.substring(6)).toList();
    }
}
