package dev.sluice.accounts;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.store.DailySpend;
import dev.sluice.store.DailySpendRepository;
import dev.sluice.store.SpendDimension;
import dev.sluice.store.SpendRepository;
import dev.sluice.store.SpendRow;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.StoreTest;
import dev.sluice.testing.TestDatabase;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;

/** A call's tags, from its body, its header and its key, reach its spend row and the day's rollups, and never the upstream. */
class CallTagsSpendTest {
    private static final String MASTER = "sk-1234";

    private static String config(TestDatabase store, MockUpstream upstream) {
        return """
                model_list:
                  - {model_name: gpt-a, litellm_params: {model: openai/a, api_base: %s, input_cost_per_token: 0.000001}}
                general_settings:
                  master_key: %s
                  %s
                """.formatted(upstream.baseUrl(), MASTER, store.generalSetting());
    }

    /** The spend row of the call {@code answer} answered, once the journal has shipped it. */
    private static SpendRow loggedRow(TestDatabase store, HttpResponse<String> answer) {
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        String callId = answer.headers().firstValue("x-litellm-call-id").orElseThrow();
        SpendRepository log = new SpendRepository(store.database());
        Eventually.until("the call's spend row is logged", Duration.ofSeconds(10), () -> log.find(callId).isPresent());
        return log.find(callId).orElseThrow();
    }

    @StoreTest
    void tagsFromTheBodyTheHeaderAndTheKeyAreLoggedAndRolledUpButNotSentUpstream(TestDatabase store) throws Exception {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start(config(store, upstream))) {
            String key = AccountingEdgesTest.generate(gateway, "{\"metadata\": {\"tags\": [\"team-search\"]}}");

            HttpResponse<String> answer = gateway.post("/v1/chat/completions",
                    "{\"model\": \"gpt-a\", \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}], \"tags\": [\"batch\"],"
                            + " \"metadata\": {\"tags\": [\"nightly\"]}}",
                    "Authorization", "Bearer " + key, "x-litellm-tags", "eu, batch");

            assertThat(loggedRow(store, answer).tags()).containsExactly("batch", "nightly", "eu", "team-search");
            LocalDate today = LocalDate.now(ZoneOffset.UTC);
            List<DailySpend> byTag = new DailySpendRepository(store.database()).between(SpendDimension.TAG, today.minusDays(1),
                    today.plusDays(1));
            assertThat(byTag).extracting(DailySpend::name).containsExactly("batch", "eu", "nightly", "team-search");
            assertThat(byTag).allSatisfy(day -> assertThat(day.requests()).isEqualTo(1));
            JsonNode sent = upstream.receivedBodies().get(0);
            assertThat(sent.has("tags")).as("the gateway's own tags field is not sent upstream: %s", sent).isFalse();
        }
    }

    @StoreTest
    void aMetadataTagsStringIsAValidOpenAiRequestAndServedWithoutTags(TestDatabase store) throws Exception {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start(config(store, upstream))) {
            String key = AccountingEdgesTest.generate(gateway, "{}");

            HttpResponse<String> answer = gateway.post("/v1/chat/completions",
                    "{\"model\": \"gpt-a\", \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}],"
                            + " \"metadata\": {\"tags\": \"billing\"}}",
                    "Authorization", "Bearer " + key);

            assertThat(loggedRow(store, answer).tags()).isEmpty();
        }
    }
}
