package dev.sluice.vendors.mock;

import static dev.sluice.vendors.mock.UpstreamClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The OpenAI mock's Responses API, whole answers, over real sockets: texts, tool calls, {@code previous_response_id} and refusals. */
class MockResponsesApiTest {

    /** 50 characters; the mock echoes the first 40: "What is the weather in Paris this weeken". */
    private static final String ASKED = "What is the weather in Paris this weekend, please?";
    private static final String ARGUMENTS = "{\"text\":\"What is the weather in Paris this weeken\"}";
    private static final String TOOLS = """
            "tools":[{"type":"function","name":"get_weather","parameters":{"type":"object"}},
                     {"type":"function","name":"get_time","parameters":{"type":"object"}}]""";

    @RegisterExtension
    final MockUpstreams mocks = new MockUpstreams();
    private final UpstreamClient client = new UpstreamClient();

    private static String ask(String extra) {
        return "{\"model\":\"gpt-4o\",\"input\":\"" + ASKED + "\"," + TOOLS + extra + "}";
    }

    @Test
    void aStringInputIsAnsweredWithAResponseObjectHoldingOneMessage() {
        MockUpstream mock = mocks.start("primary", MockMode.OK);

        HttpResponse<String> response = client.post(mock, "/v1/responses", """
                {"model":"gpt-4o","input":"where is my parcel"}""");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).hasValue("application/json");
        ObjectNode body = (ObjectNode) json(response);
        assertThat(body.remove("created_at").asLong()).isPositive();
        // The prompt's 18 characters -> 5 tokens; "[primary] you said: where is my parcel" (38) -> 10.
        assertThat(body).isEqualTo(json("""
                {"id":"resp_mock_1","object":"response","status":"completed","error":null,"incomplete_details":null,
                 "instructions":null,"max_output_tokens":null,"model":"gpt-4o",
                 "output":[{"id":"msg_mock_1","type":"message","status":"completed","role":"assistant",
                            "content":[{"type":"output_text","text":"[primary] you said: where is my parcel","annotations":[]}]}],
                 "parallel_tool_calls":true,"previous_response_id":null,"store":true,"temperature":1.0,
                 "text":{"format":{"type":"text"}},"tool_choice":"auto","tools":[],"top_p":1.0,"truncation":"disabled",
                 "usage":{"input_tokens":5,"input_tokens_details":{"cached_tokens":0,"cache_write_tokens":0},"output_tokens":10,
                          "output_tokens_details":{"reasoning_tokens":0},"total_tokens":15},
                 "metadata":{}}"""));
    }

    @Test
    void itemsAreReadForTheLastUserTextAndTheSettingsAreRepeated() {
        MockUpstream mock = mocks.start("primary", MockMode.OK);

        JsonNode body = json(client.post(mock, "/responses", """
                {"model":"gpt-4o","instructions":"be brief","temperature":0.2,"top_p":0.9,"max_output_tokens":64,
                 "store":false,"metadata":{"team":"a"},
                 "input":[{"role":"user","content":"first question"},
                          {"type":"message","role":"assistant","content":[{"type":"output_text","text":"an answer"}]},
                          {"type":"message","role":"user","content":[{"type":"input_text","text":"second "},
                                                                       {"type":"input_text","text":"question"}]},
                          {"role":"developer","content":"mind the tone"}]}"""));

        assertThat(body.at("/output/0/content/0/text").asText()).isEqualTo("[primary] you said: second question");
        assertThat(body.path("instructions").asText()).isEqualTo("be brief");
        assertThat(body.path("temperature").asDouble()).isEqualTo(0.2);
        assertThat(body.path("top_p").asDouble()).isEqualTo(0.9);
        assertThat(body.path("max_output_tokens").asInt()).isEqualTo(64);
        assertThat(body.path("store").asBoolean()).isFalse();
        assertThat(body.path("metadata")).isEqualTo(json("{\"team\":\"a\"}"));
        // 8 + 14 + 9 + 15 + 13 = 59 characters of instructions and messages -> 15 tokens.
        assertThat(body.at("/usage/input_tokens").asInt()).isEqualTo(15);
    }

    @Test
    void givenFunctionToolsTheFirstIsCalledWithWhatTheUserSaid() {
        MockUpstream mock = mocks.start("primary", MockMode.OK);

        JsonNode body = json(client.post(mock, "/v1/responses", ask("")));

        assertThat(body.path("output")).isEqualTo(json("""
                [{"id":"fc_mock_1","type":"function_call","status":"completed","call_id":"call_mock_1",
                  "name":"get_weather","arguments":%s}]""".formatted(UpstreamClient.quote(ARGUMENTS))));
        assertThat(body.path("tools")).isEqualTo(json("{" + TOOLS + "}").path("tools"));
        // The prompt's 50 characters -> 13 tokens; the 51 characters of the arguments -> 13.
        assertThat(body.at("/usage/output_tokens").asInt()).isEqualTo(13);
        assertThat(body.at("/usage/total_tokens").asInt()).isEqualTo(26);
    }

    @Test
    void toolChoiceNamesTheToolOrTurnsToolsOff() {
        MockUpstream mock = mocks.start("primary", MockMode.OK);

        JsonNode named = json(client.post(mock, "/v1/responses", ask(",\"tool_choice\":{\"type\":\"function\",\"name\":\"get_time\"}")));
        JsonNode required = json(client.post(mock, "/v1/responses", ask(",\"tool_choice\":\"required\"")));
        JsonNode none = json(client.post(mock, "/v1/responses", ask(",\"tool_choice\":\"none\"")));

        assertThat(named.at("/output/0/name").asText()).isEqualTo("get_time");
        assertThat(named.path("tool_choice")).isEqualTo(json("{\"type\":\"function\",\"name\":\"get_time\"}"));
        assertThat(required.at("/output/0/name").asText()).isEqualTo("get_weather");
        assertThat(none.at("/output/0/type").asText()).isEqualTo("message");
        assertThat(none.at("/output/0/content/0/text").asText()).isEqualTo("[primary] you said: " + ASKED.substring(0, 40));
    }

    @Test
    void aFollowUpWithOnlyTheToolsOutputAnswersWhatTheToolSaid() {
        MockUpstream mock = mocks.start("primary", MockMode.OK);
        JsonNode first = json(client.post(mock, "/v1/responses", ask("")));
        String callId = first.at("/output/0/call_id").asText();

        JsonNode second = json(client.post(mock, "/v1/responses", """
                {"model":"gpt-4o","previous_response_id":"%s",%s,
                 "input":[{"type":"function_call_output","call_id":"%s","output":"sunny, 24 degrees"}]}"""
                .formatted(first.path("id").asText(), TOOLS, callId)));

        assertThat(second.path("id").asText()).isEqualTo("resp_mock_2");
        assertThat(second.path("previous_response_id").asText()).isEqualTo("resp_mock_1");
        assertThat(second.path("output")).hasSize(1);
        assertThat(second.at("/output/0/id").asText()).isEqualTo("msg_mock_2");
        assertThat(second.at("/output/0/content/0/text").asText()).isEqualTo("[primary] the tool said: sunny, 24 degrees");
        // The earlier question (50) and the tool's output (17) -> 17 tokens.
        assertThat(second.at("/usage/input_tokens").asInt()).isEqualTo(17);
        assertThat(mock.receivedPreviousResponseIds()).containsExactly("resp_mock_1");
    }

    @Test
    void theConversationGoesOnAcrossSeveralResponses() {
        MockUpstream mock = mocks.start("primary", MockMode.OK);
        String first = json(client.post(mock, "/v1/responses", "{\"model\":\"m\",\"input\":\"remember me\"}")).path("id").asText();
        String second = json(client.post(mock, "/v1/responses",
                "{\"model\":\"m\",\"previous_response_id\":\"" + first + "\",\"input\":[]}")).path("id").asText();

        JsonNode third = json(client.post(mock, "/v1/responses",
                "{\"model\":\"m\",\"previous_response_id\":\"" + second + "\"}"));

        assertThat(third.at("/output/0/content/0/text").asText()).isEqualTo("[primary] you said: remember me");
        assertThat(mock.receivedPreviousResponseIds()).containsExactly(first, second);
    }

    @Test
    void anUnknownPreviousResponseIsRefusedNamingTheField() {
        MockUpstream mock = mocks.start("primary", MockMode.OK);

        HttpResponse<String> response = client.post(mock, "/v1/responses",
                "{\"model\":\"m\",\"previous_response_id\":\"resp_nowhere\",\"input\":\"hi\"}");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(json(response)).isEqualTo(json("""
                {"error":{"message":"[primary] Previous response with id 'resp_nowhere' not found.",
                 "type":"invalid_request_error","param":"previous_response_id","code":"previous_response_not_found"}}"""));
        assertThat(mock.requests()).isEqualTo(1);
        assertThat(mock.receivedPreviousResponseIds()).containsExactly("resp_nowhere");
    }

    @Test
    void aResponseNotStoredCannotBeContinued() {
        MockUpstream mock = mocks.start("primary", MockMode.OK);
        String id = json(client.post(mock, "/v1/responses", "{\"model\":\"m\",\"store\":false,\"input\":\"hi\"}"))
                .path("id").asText();

        HttpResponse<String> response = client.post(mock, "/v1/responses",
                "{\"model\":\"m\",\"previous_response_id\":\"" + id + "\",\"input\":\"again\"}");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(json(response).at("/error/code").asText()).isEqualTo("previous_response_not_found");
    }

    @Test
    void anInputOfTheWrongShapeIsRefusedNamingIt() {
        MockUpstream mock = mocks.start("primary", MockMode.OK);

        HttpResponse<String> number = client.post(mock, "/v1/responses", "{\"model\":\"m\",\"input\":7}");
        HttpResponse<String> item = client.post(mock, "/v1/responses", "{\"model\":\"m\",\"input\":[{\"role\":\"user\",\"content\":\"hi\"},\"hi\"]}");

        assertThat(number.statusCode()).isEqualTo(400);
        assertThat(json(number).path("error")).isEqualTo(json("""
                {"message":"[primary] Invalid type for 'input': expected a string or an array of input items.",
                 "type":"invalid_request_error","param":"input","code":"invalid_type"}"""));
        assertThat(item.statusCode()).isEqualTo(400);
        assertThat(json(item).at("/error/param").asText()).isEqualTo("input[1]");
    }

    @Test
    void failingModesAnswerAsOnChat() {
        MockUpstream failing = mocks.start("primary", MockMode.FAIL);
        MockUpstream limited = mocks.start("secondary", MockMode.RATELIMIT);
        MockUpstream missing = mocks.start("third", MockMode.NOTFOUND);

        HttpResponse<String> failed = client.post(failing, "/v1/responses", "{\"model\":\"m\",\"input\":\"hi\"}");
        HttpResponse<String> throttled = client.post(limited, "/v1/responses", "{\"model\":\"m\",\"input\":\"hi\"}");
        HttpResponse<String> notFound = client.post(missing, "/v1/responses", "{\"model\":\"gpt-9\",\"input\":\"hi\"}");

        assertThat(failed.statusCode()).isEqualTo(500);
        assertThat(json(failed).at("/error/type").asText()).isEqualTo("server_error");
        assertThat(throttled.statusCode()).isEqualTo(429);
        assertThat(throttled.headers().firstValue("retry-after")).isPresent();
        assertThat(json(throttled).at("/error/code").asText()).isEqualTo("rate_limit_exceeded");
        assertThat(notFound.statusCode()).isEqualTo(404);
        assertThat(json(notFound).at("/error/message").asText()).contains("The model 'gpt-9' does not exist");
    }

    @Test
    void contextAndPolicyReadTheWholeConversation() {
        MockUpstream context = mocks.start(MockOptions.defaults("primary", MockMode.CONTEXT).withMaxChars(20));
        MockUpstream policy = mocks.start("secondary", MockMode.POLICY);

        HttpResponse<String> tooLong = client.post(context, "/v1/responses", """
                {"model":"m","instructions":"0123456789","input":[{"role":"user","content":"0123456789x"}]}""");
        HttpResponse<String> filtered = client.post(policy, "/v1/responses", """
                {"model":"m","input":[{"type":"function_call_output","call_id":"c","output":"%s"}]}"""
                .formatted(policy.options().triggerWord()));

        assertThat(tooLong.statusCode()).isEqualTo(400);
        assertThat(json(tooLong).at("/error/code").asText()).isEqualTo("context_length_exceeded");
        assertThat(filtered.statusCode()).isEqualTo(400);
        assertThat(json(filtered).at("/error/code").asText()).isEqualTo("content_filter");
    }
}
