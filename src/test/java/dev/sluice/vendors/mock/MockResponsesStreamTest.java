package dev.sluice.vendors.mock;

import static dev.sluice.vendors.mock.UpstreamClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.Eventually;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The OpenAI mock's Responses API streams on the wire: the event order and framing, a tool call, and a cut. */
class MockResponsesStreamTest {

    private static final String ARGUMENTS = "{\"text\":\"What is the weather in Paris this weeken\"}";

    @RegisterExtension
    final MockUpstreams mocks = new MockUpstreams();
    private final UpstreamClient client = new UpstreamClient();

    /** One server-sent event: its {@code event:} name and its {@code data:} JSON. */
    private record Event(String name, JsonNode data) {}

    @Test
    void aTextStreamsOneDeltaPerWordBetweenTheLifecycleEvents() {
        MockUpstream mock = mocks.start("primary", MockMode.OK);

        HttpResponse<String> response = client.post(mock, "/v1/responses",
                "{\"model\":\"gpt-4o\",\"stream\":true,\"input\":\"where is my parcel\"}");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).hasValue("text/event-stream");
        assertThat(response.body()).doesNotContain("[DONE]");
        List<Event> events = events(response.body());
        // "[primary]" " you" " said:" " where" " is" " my" " parcel": seven deltas.
        List<String> deltas = IntStream.range(0, 7).mapToObj(i -> "response.output_text.delta").toList();
        List<String> expected = new ArrayList<>(List.of("response.created", "response.in_progress",
                "response.output_item.added", "response.content_part.added"));
        expected.addAll(deltas);
        expected.addAll(List.of("response.output_text.done", "response.content_part.done",
                "response.output_item.done", "response.completed"));
        assertThat(events).extracting(Event::name).containsExactlyElementsOf(expected);
        assertThat(events).allSatisfy(event -> assertThat(event.data().path("type").asText()).isEqualTo(event.name()));
        assertThat(events).extracting(event -> event.data().path("sequence_number").asInt())
                .containsExactlyElementsOf(IntStream.range(0, events.size()).boxed().toList());

        JsonNode created = events.get(0).data().path("response");
        assertThat(created.path("id").asText()).isEqualTo("resp_mock_1");
        assertThat(created.path("status").asText()).isEqualTo("in_progress");
        assertThat(created.path("output")).isEmpty();
        assertThat(events.get(2).data().path("item")).isEqualTo(json("""
                {"id":"msg_mock_1","type":"message","status":"in_progress","role":"assistant","content":[]}"""));
        assertThat(events.get(3).data()).isEqualTo(json("""
                {"type":"response.content_part.added","sequence_number":3,"item_id":"msg_mock_1","output_index":0,
                 "content_index":0,"part":{"type":"output_text","text":"","annotations":[]}}"""));
        assertThat(events.get(4).data()).isEqualTo(json("""
                {"type":"response.output_text.delta","sequence_number":4,"item_id":"msg_mock_1","output_index":0,
                 "content_index":0,"delta":"[primary]","logprobs":[]}"""));
        String joined = events.subList(4, 11).stream().map(event -> event.data().path("delta").asText())
                .collect(Collectors.joining());
        assertThat(joined).isEqualTo("[primary] you said: where is my parcel");
        assertThat(events.get(11).data().path("text").asText()).isEqualTo(joined);
        assertThat(events.get(12).data().at("/part/text").asText()).isEqualTo(joined);
        JsonNode completed = events.get(14).data().path("response");
        assertThat(completed.path("status").asText()).isEqualTo("completed");
        assertThat(completed.at("/output/0")).isEqualTo(events.get(13).data().path("item"));
        assertThat(completed.at("/output/0/content/0/text").asText()).isEqualTo(joined);
        assertThat(completed.at("/usage/total_tokens").asInt()).isEqualTo(15);
    }

    @Test
    void aToolCallStreamsItsArgumentsInTwoHalves() {
        MockUpstream mock = mocks.start("primary", MockMode.OK);

        List<Event> events = events(client.post(mock, "/v1/responses", """
                {"model":"gpt-4o","stream":true,"input":"What is the weather in Paris this weekend, please?",
                 "tools":[{"type":"function","name":"get_weather","parameters":{"type":"object"}}]}""").body());

        assertThat(events).extracting(Event::name).containsExactly("response.created", "response.in_progress",
                "response.output_item.added", "response.function_call_arguments.delta",
                "response.function_call_arguments.delta", "response.function_call_arguments.done",
                "response.output_item.done", "response.completed");
        assertThat(events.get(2).data().path("item")).isEqualTo(json("""
                {"id":"fc_mock_1","type":"function_call","status":"in_progress","call_id":"call_mock_1",
                 "name":"get_weather","arguments":""}"""));
        assertThat(events.get(3).data().path("item_id").asText()).isEqualTo("fc_mock_1");
        assertThat(events.get(3).data().path("delta").asText() + events.get(4).data().path("delta").asText())
                .isEqualTo(ARGUMENTS);
        assertThat(events.get(5).data()).isEqualTo(json("""
                {"type":"response.function_call_arguments.done","sequence_number":5,"item_id":"fc_mock_1",
                 "output_index":0,"name":"get_weather","arguments":%s}""".formatted(UpstreamClient.quote(ARGUMENTS))));
        assertThat(events.get(6).data().at("/item/status").asText()).isEqualTo("completed");
        assertThat(events.get(7).data().at("/response/output/0/arguments").asText()).isEqualTo(ARGUMENTS);
    }

    @Test
    void aStreamedResponseCanBeContinued() {
        MockUpstream mock = mocks.start("primary", MockMode.OK);
        List<Event> first = events(client.post(mock, "/v1/responses",
                "{\"model\":\"m\",\"stream\":true,\"input\":\"hi\",\"tools\":[{\"type\":\"function\",\"name\":\"f\"}]}").body());
        JsonNode call = first.getLast().data().at("/response/output/0");

        JsonNode second = json(client.post(mock, "/v1/responses", """
                {"model":"m","previous_response_id":"resp_mock_1",
                 "input":[{"type":"function_call_output","call_id":"%s","output":"done"}]}"""
                .formatted(call.path("call_id").asText())));

        assertThat(second.at("/output/0/content/0/text").asText()).isEqualTo("[primary] the tool said: done");
    }

    @Test
    void aCutStreamSendsTwoEventsThenDropsTheConnection() {
        MockUpstream mock = mocks.start("primary", MockMode.CUT);

        try (RawConnection connection = RawConnection.open(mock)) {
            connection.post("/v1/responses", "{\"model\":\"m\",\"stream\":true,\"input\":\"where is my parcel\"}");
            String received = connection.readToEnd();

            assertThat(connection.ended()).isTrue();
            assertThat(received).startsWith("HTTP/1.1 200").contains("text/event-stream");
            assertThat(received.split("data: ", -1)).hasSize(3);
            assertThat(received).contains("event: response.created").contains("event: response.in_progress");
            assertThat(received).doesNotContain("response.output_item.added").doesNotContain("response.completed");
        }
        Eventually.equal("open connections", mock::openConnections, 0);
    }

    @Test
    void aCutWholeAnswerDropsTheConnectionUnanswered() {
        MockUpstream mock = mocks.start("primary", MockMode.CUT);

        try (RawConnection connection = RawConnection.open(mock)) {
            connection.post("/v1/responses", "{\"model\":\"m\",\"input\":\"hi\"}");

            assertThat(connection.readToEnd()).isEmpty();
            assertThat(connection.ended()).isTrue();
        }
    }

    private static List<Event> events(String body) {
        List<Event> events = new ArrayList<>();
        for (String block : body.split("\n\n")) {
            List<String> lines = block.lines().toList();
            assertThat(lines).hasSize(2);
            assertThat(lines.get(0)).startsWith("event: ");
            assertThat(lines.get(1)).startsWith("data: ");
            events.add(new Event(lines.get(0).substring(7), json(lines.get(1).substring(6))));
        }
        return events;
    }
}
