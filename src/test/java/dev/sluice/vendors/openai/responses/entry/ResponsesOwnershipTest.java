package dev.sluice.vendors.openai.responses.entry;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.StoreTest;
import dev.sluice.testing.TcpProxy;
import dev.sluice.testing.TestDatabase;
import dev.sluice.testing.TestDatabases;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import dev.sluice.wire.SseEvents;
import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A response a deployment's own Responses API made is kept by that vendor under the
 * deployment's key, which every caller shares: the gateway records which key it handed each id
 * to, in its store, and refuses every other key's {@code previous_response_id} with 404 before
 * anything goes upstream. The master key may name any id.
 */
class ResponsesOwnershipTest {
    private static final String MASTER = "sk-master-owners-77";

    private static TestGateway gateway(MockUpstream vendor, String storeSetting) {
        return TestGateway.start("""
                model_list:
                  - {model_name: gpt-native, litellm_params: {model: openai/gpt-4o, api_base: '%1$s'}}
                  - {model_name: chat-only, litellm_params: {model: openai/gpt-4o, api_base: '%1$s', use_responses_api: false}}
                router_settings: {num_retries: 0}
                general_settings:
                  master_key: %2$s
                  %3$s
                """.formatted(vendor.baseUrl(), MASTER, storeSetting));
    }

    private static String newKey(TestGateway gateway) {
        HttpResponse<String> generated = gateway.post("/key/generate", "{}", "Authorization", "Bearer " + MASTER);
        assertThat(generated.statusCode()).isEqualTo(200);
        return tree(generated).path("key").asText();
    }

    private static HttpResponse<String> create(TestGateway gateway, String key, String body) {
        return gateway.post("/v1/responses", body, "Authorization", "Bearer " + key);
    }

    private static HttpResponse<String> continueFrom(TestGateway gateway, String key, String id) {
        return create(gateway, key, "{\"model\":\"gpt-native\",\"input\":\"and then?\",\"previous_response_id\":\"" + id + "\"}");
    }

    private static String whole(TestGateway gateway, String key) {
        HttpResponse<String> made = create(gateway, key, "{\"model\":\"gpt-native\",\"input\":\"hello\"}");
        assertThat(made.statusCode()).isEqualTo(200);
        return tree(made).path("id").asText();
    }

    private static String streamed(TestGateway gateway, String key) {
        HttpResponse<String> made = create(gateway, key, "{\"model\":\"gpt-native\",\"input\":\"hello\",\"stream\":true}");
        assertThat(made.statusCode()).isEqualTo(200);
        return SseEvents.read(Buffer.buffer(made.body())).stream()
                .map(event -> parse(event.data()).path("response").path("id"))
                .filter(JsonNode::isTextual).findFirst().orElseThrow().asText();
    }

    private static void assertRefused(HttpResponse<String> refused, MockUpstream vendor, String id) {
        assertThat(refused.statusCode()).isEqualTo(404);
        JsonNode error = tree(refused).path("error");
        assertThat(error.path("code").asText()).isEqualTo("previous_response_not_found");
        assertThat(error.path("param").asText()).isEqualTo("previous_response_id");
        assertThat(vendor.receivedPreviousResponseIds()).as("nothing went upstream").doesNotContain(id);
    }

    @StoreTest
    void aVendorsResponseIsContinuedOnlyByTheKeyItWasHandedTo(TestDatabase store) {
        try (MockUpstream vendor = MockUpstream.start(MockOptions.defaults("oai", MockMode.OK));
                TestGateway gateway = gateway(vendor, store.generalSetting())) {
            String owner = newKey(gateway);
            String other = newKey(gateway);

            String made = whole(gateway, owner);
            String madeStreaming = streamed(gateway, owner);
            assertThat(made).startsWith("resp_mock_");
            assertThat(madeStreaming).startsWith("resp_mock_").isNotEqualTo(made);

            assertRefused(continueFrom(gateway, other, made), vendor, made);
            assertRefused(continueFrom(gateway, other, madeStreaming), vendor, madeStreaming);
            assertRefused(continueFrom(gateway, owner, "resp_mock_handed_to_no_key"), vendor, "resp_mock_handed_to_no_key");

            HttpResponse<String> continued = continueFrom(gateway, owner, made);
            assertThat(continued.statusCode()).isEqualTo(200);
            assertThat(continueFrom(gateway, owner, madeStreaming).statusCode()).isEqualTo(200);
            assertThat(vendor.receivedPreviousResponseIds()).containsExactly(made, madeStreaming);
            String next = tree(continued).path("id").asText();
            assertRefused(continueFrom(gateway, other, next), vendor, next);
            assertThat(continueFrom(gateway, owner, next).statusCode()).as("each id handed out is recorded").isEqualTo(200);

            assertThat(continueFrom(gateway, MASTER, made).statusCode()).as("the master key may name any id").isEqualTo(200);

            for (String key : new String[] {owner, other}) {
                assertThat(gateway.get("/v1/responses/" + made, "Authorization", "Bearer " + key).statusCode())
                        .as("the vendor keeps it, not the gateway").isEqualTo(404);
                assertThat(delete(gateway, key, made).statusCode()).isEqualTo(404);
            }
            assertThat(continueFrom(gateway, owner, made).statusCode()).as("a delete here leaves the record").isEqualTo(200);
        }
    }

    @Test
    void theMasterKeyReadsAndContinuesAResponseKeptHereWhoeverMadeIt() {
        try (TestDatabase store = TestDatabases.postgres();
                MockUpstream vendor = MockUpstream.start(MockOptions.defaults("oai", MockMode.OK));
                TestGateway gateway = gateway(vendor, store.generalSetting())) {
            String owner = newKey(gateway);
            String other = newKey(gateway);
            HttpResponse<String> made = create(gateway, owner, "{\"model\":\"chat-only\",\"input\":\"my name is Ada\"}");
            String kept = tree(made).path("id").asText();

            assertThat(gateway.get("/v1/responses/" + kept, "Authorization", "Bearer " + other).statusCode()).isEqualTo(404);
            assertRefused(continueFrom(gateway, other, kept), vendor, kept);
            assertThat(gateway.get("/v1/responses/" + kept, "Authorization", "Bearer " + owner).statusCode()).isEqualTo(200);
            HttpResponse<String> read = gateway.get("/v1/responses/" + kept, "Authorization", "Bearer " + MASTER);
            assertThat(read.statusCode()).isEqualTo(200);
            assertThat(tree(read).path("id").asText()).isEqualTo(kept);

            assertThat(continueFrom(gateway, MASTER, kept).statusCode()).isEqualTo(200);
            assertThat(vendor.receivedBodies().getLast().path("input").toString()).as("the kept turns are carried")
                    .contains("my name is Ada");
        }
    }

    @Test
    void theRecordIsSharedByReplicasAndOutlivesARestart() {
        try (TestDatabase store = TestDatabases.postgres();
                MockUpstream vendor = MockUpstream.start(MockOptions.defaults("oai", MockMode.OK))) {
            String owner;
            String other;
            String made;
            try (TestGateway first = gateway(vendor, store.generalSetting())) {
                owner = newKey(first);
                other = newKey(first);
                made = whole(first, owner);
            }
            try (TestGateway second = gateway(vendor, store.generalSetting())) {
                assertRefused(continueFrom(second, other, made), vendor, made);
                assertThat(continueFrom(second, owner, made).statusCode()).isEqualTo(200);
            }
        }
    }

    @Test
    void whileTheStoreCannotTellWhoseAnIdIsAKeysCallIsRefused() {
        try (TestDatabase store = TestDatabases.postgres();
                TcpProxy proxy = TcpProxy.to(TestDatabases.postgresAddress());
                MockUpstream vendor = MockUpstream.start(MockOptions.defaults("oai", MockMode.OK));
                TestGateway gateway = gateway(vendor, store.generalSettingThrough(proxy.port()))) {
            String owner = newKey(gateway);
            String other = newKey(gateway);
            String made = whole(gateway, owner);
            assertThat(continueFrom(gateway, other, "resp_warm_up").statusCode()).as("both keys are known").isEqualTo(404);

            proxy.stop();
            HttpResponse<String> refused = continueFrom(gateway, other, made);

            assertThat(refused.statusCode()).isEqualTo(503);
            assertThat(tree(refused).path("error").path("code").asText()).isEqualTo("store_unavailable");
            assertThat(refused.headers().firstValue("Retry-After")).contains("1");
            assertThat(vendor.receivedPreviousResponseIds()).doesNotContain(made);
            assertThat(continueFrom(gateway, MASTER, made).statusCode()).as("the master key's call goes on").isEqualTo(200);
        }
    }

    private static HttpResponse<String> delete(TestGateway gateway, String key, String id) {
        return gateway.send(HttpRequest.newBuilder(gateway.uri("/v1/responses/" + id)).timeout(Duration.ofSeconds(20))
                .header("Authorization", "Bearer " + key).DELETE().build());
    }

    private static JsonNode tree(HttpResponse<String> response) {
        return parse(response.body());
    }

    private static JsonNode parse(String json) {
        try {
            return Json.parse(json.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
