package dev.sluice.routing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.MetricSamples;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Tag-based routing over real sockets: a request's tags from its body, its
 * {@code metadata.tags}, the {@code x-litellm-tags} header and its key's and team's metadata
 * pick the deployments it may go to; an untagged one goes to the {@code default} deployment; a
 * request whose tags no deployment of its group takes is a 400 that reaches no upstream.
 */
class TagRoutingTest {
    private static final String MASTER = "sk-admin";

    private final Map<String, MockUpstream> mocks = new TreeMap<>();

    @BeforeEach
    void startMocks() {
        for (String name : new String[] {"paid", "free", "std", "strict-free", "strict-plain"}) {
            mocks.put(name, MockUpstream.start(MockOptions.defaults(name, MockMode.OK)));
        }
    }

    @AfterEach
    void stopMocks() {
        mocks.values().forEach(MockUpstream::close);
    }

    /**
     * Group {@code g}: {@code paid}, {@code free} and {@code std} (tagged {@code default});
     * group {@code strict}: {@code strict-free} and the untagged {@code strict-plain}, no default.
     */
    private TestGateway gateway(String routerSettings) {
        return TestGateway.start("""
                model_list:
                  - {model_name: g, litellm_params: {model: openai/a, api_base: %s, tags: [paid]}, model_info: {id: paid}}
                  - {model_name: g, litellm_params: {model: openai/b, api_base: %s, tags: [free]}, model_info: {id: free}}
                  - {model_name: g, litellm_params: {model: openai/c, api_base: %s, tags: [default]}, model_info: {id: std}}
                  - {model_name: strict, litellm_params: {model: openai/d, api_base: %s, tags: [free]}, model_info: {id: strict-free}}
                  - {model_name: strict, litellm_params: {model: openai/e, api_base: %s}, model_info: {id: strict-plain}}
                router_settings: {%s}
                general_settings: {master_key: %s}
                """.formatted(url("paid"), url("free"), url("std"), url("strict-free"), url("strict-plain"), routerSettings, MASTER));
    }

    private String url(String mock) {
        return mocks.get(mock).baseUrl();
    }

    private static String chat(String group, String extra) {
        return "{\"model\":\"" + group + "\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]" + extra + "}";
    }

    private static String servedBy(HttpResponse<String> answer) {
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        return answer.headers().firstValue("x-litellm-model-id").orElse("(none)");
    }

    private static String servedBy(TestGateway gateway, String body, String... headers) {
        return servedBy(gateway.post("/v1/chat/completions", body, headers));
    }

    private static String[] as(String key, String... more) {
        String[] headers = new String[more.length + 2];
        headers[0] = "Authorization";
        headers[1] = "Bearer " + key;
        System.arraycopy(more, 0, headers, 2, more.length);
        return headers;
    }

    private static String create(TestGateway gateway, String path, String body, String field) throws IOException {
        HttpResponse<String> created = gateway.post(path, body, "Authorization", "Bearer " + MASTER);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
        return Json.MAPPER.readTree(created.body()).path(field).asText();
    }

    @Test
    void bodyMetadataAndHeaderTagsEachGoOnlyToTheTaggedDeployment() {
        try (TestGateway gateway = gateway("enable_tag_filtering: true")) {
            for (int i = 0; i < 4; i++) {
                assertThat(servedBy(gateway, chat("g", ", \"tags\": [\"paid\"]"), as(MASTER))).isEqualTo("paid");
                assertThat(servedBy(gateway, chat("g", ", \"metadata\": {\"tags\": [\"free\"]}"), as(MASTER))).isEqualTo("free");
                assertThat(servedBy(gateway, chat("g", ""), as(MASTER, "x-litellm-tags", " free , other"))).isEqualTo("free");
            }
            assertThat(mocks.get("paid").requests()).isEqualTo(4);
            assertThat(mocks.get("free").requests()).isEqualTo(8);
            assertThat(mocks.get("std").requests()).isZero();
            // A call's spend row, which the metrics count by tag, is recorded as its answer ends.
            Eventually.until("the calls are counted by tag", Duration.ofSeconds(5), () -> {
                Map<String, Double> m = MetricSamples.parse(gateway.get("/metrics", "Authorization", "Bearer " + MASTER).body());
                return Double.valueOf(4.0).equals(m.get("sluice_tag_requests_total{model_group=\"g\",tag=\"paid\"}"))
                        && Double.valueOf(8.0).equals(m.get("sluice_tag_requests_total{model_group=\"g\",tag=\"free\"}"))
                        && Double.valueOf(4.0).equals(m.get("sluice_tag_requests_total{model_group=\"g\",tag=\"other\"}"));
            });
        }
    }

    @Test
    void untaggedRequestsAndTagsNoDeploymentCarriesGoToTheDefaultDeployment() {
        try (TestGateway gateway = gateway("enable_tag_filtering: true")) {
            for (int i = 0; i < 4; i++) {
                assertThat(servedBy(gateway, chat("g", ""), as(MASTER))).isEqualTo("std");
                assertThat(servedBy(gateway, chat("g", ", \"tags\": [\"gold\"]"), as(MASTER))).isEqualTo("std");
            }
            assertThat(servedBy(gateway, chat("strict", ""), as(MASTER))).as("no default: the untagged deployment")
                    .isEqualTo("strict-plain");
            assertThat(mocks.get("paid").requests() + mocks.get("free").requests() + mocks.get("strict-free").requests()).isZero();
        }
    }

    @Test
    void tagsNoDeploymentTakesInAGroupWithoutDefaultAreA400NamingTheGroupAndTagsThatReachesNoUpstream() throws IOException {
        try (TestGateway gateway = gateway("enable_tag_filtering: true")) {
            HttpResponse<String> refused = gateway.post("/v1/chat/completions", chat("strict", ", \"tags\": [\"gold\", \"silver\"]"),
                    as(MASTER));

            assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
            JsonNode error = Json.MAPPER.readTree(refused.body()).path("error");
            assertThat(error.path("type").asText()).isEqualTo("invalid_request_error");
            assertThat(error.path("code").asText()).isEqualTo("no_deployments_with_tag_routing");
            assertThat(error.path("param").asText()).isEqualTo("tags");
            assertThat(error.path("message").asText()).isEqualTo("Sluice: Not allowed to access model due to tags configuration. "
                    + "Passed model=strict and tags=[gold, silver]: no deployment of model group 'strict' carries any of these tags, "
                    + "and none is tagged 'default'. Sluice: model group 'strict' failed with the error above. No fallback was "
                    + "attempted.");
            assertThat(refused.headers().firstValue("x-litellm-model-group")).hasValue("strict");
            mocks.values().forEach(mock -> assertThat(mock.requests()).as(mock.toString()).isZero());
        }
    }

    @Test
    void aVirtualKeysAndItsTeamsMetadataTagsRouteItsCalls() throws IOException {
        try (TestGateway gateway = gateway("enable_tag_filtering: true")) {
            String paidKey = create(gateway, "/key/generate", "{\"metadata\": {\"tags\": [\"paid\"]}}", "key");
            String team = create(gateway, "/team/new", "{\"metadata\": {\"tags\": [\"free\"]}}", "team_id");
            String teamKey = create(gateway, "/key/generate", "{\"team_id\": \"" + team + "\"}", "key");

            for (int i = 0; i < 3; i++) {
                assertThat(servedBy(gateway, chat("g", ""), as(paidKey))).isEqualTo("paid");
                assertThat(servedBy(gateway, chat("g", ""), as(teamKey))).isEqualTo("free");
            }
            assertThat(mocks.get("std").requests()).isZero();
        }
    }

    @Test
    void aDeploymentAddedAtRunTimeIsRoutedByItsTagsAndShowsThem() throws IOException {
        try (TestGateway gateway = gateway("enable_tag_filtering: true")) {
            HttpResponse<String> added = gateway.post("/model/new", """
                    {"model_name": "g", "litellm_params": {"model": "openai/x", "api_base": "%s", "tags": ["gold"]},
                     "model_info": {"id": "gold"}}""".formatted(url("strict-plain")), as(MASTER));
            assertThat(added.statusCode()).as(added.body()).isEqualTo(200);

            assertThat(servedBy(gateway, chat("g", ", \"tags\": [\"gold\"]"), as(MASTER))).isEqualTo("gold");
            JsonNode shown = Json.MAPPER.readTree(gateway.get("/model/info?litellm_model_id=gold", as(MASTER)).body());
            assertThat(shown.path("data").path(0).path("litellm_params").path("tags").toString()).isEqualTo("[\"gold\"]");
            HttpResponse<String> bad = gateway.post("/model/new",
                    "{\"model_name\": \"g\", \"litellm_params\": {\"model\": \"openai/y\", \"tags\": \"gold\"}}", as(MASTER));
            assertThat(bad.statusCode()).isEqualTo(400);
            assertThat(Json.MAPPER.readTree(bad.body()).path("error").path("message").asText())
                    .contains("litellm_params.tags: \"gold\" (expected: a list, each item a non-empty string");
        }
    }

    @Test
    void withFilteringOffTagsChangeNothingUntilItIsTurnedOnThroughTheRouterSettingsApi() throws IOException {
        try (TestGateway gateway = gateway("num_retries: 0")) {
            for (int i = 0; i < 12; i++) {
                servedBy(gateway, chat("g", ", \"tags\": [\"paid\"]"), as(MASTER));
            }
            assertThat(mocks.get("free").requests() + mocks.get("std").requests()).as("shuffled over every deployment").isPositive();
            HttpResponse<String> refusedOff = gateway.post("/v1/chat/completions", chat("strict", ", \"tags\": [\"gold\"]"), as(MASTER));
            assertThat(refusedOff.statusCode()).as("no filtering, no refusal").isEqualTo(200);

            HttpResponse<String> turnedOn = gateway.post("/router/settings/update", "{\"enable_tag_filtering\": true}", as(MASTER));
            assertThat(turnedOn.statusCode()).as(turnedOn.body()).isEqualTo(200);
            assertThat(Json.MAPPER.readTree(turnedOn.body()).path("settings").path("enable_tag_filtering").path("source").asText())
                    .isEqualTo("database");

            int paidBefore = mocks.get("paid").requests();
            for (int i = 0; i < 5; i++) {
                assertThat(servedBy(gateway, chat("g", ", \"tags\": [\"paid\"]"), as(MASTER))).isEqualTo("paid");
            }
            assertThat(mocks.get("paid").requests()).isEqualTo(paidBefore + 5);
            assertThat(gateway.post("/v1/chat/completions", chat("strict", ", \"tags\": [\"gold\"]"), as(MASTER)).statusCode())
                    .isEqualTo(400);
        }
    }
}
