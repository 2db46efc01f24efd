package dev.sluice.admin;

import static dev.sluice.admin.SpendLogsApiTest.ANSWER;
import static dev.sluice.admin.SpendLogsApiTest.atNow;
import static dev.sluice.admin.SpendLogsApiTest.get;
import static dev.sluice.admin.SpendLogsApiTest.json;
import static dev.sluice.admin.SpendLogsApiTest.post;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.store.SpendLedger;
import dev.sluice.store.SpendRepository;
import dev.sluice.store.SpendRow;
import dev.sluice.store.VirtualKey;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.ScriptedUpstream;
import dev.sluice.testing.StoreTest;
import dev.sluice.testing.TestDatabase;
import dev.sluice.testing.TestGateway;
import java.math.BigDecimal;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Customers (a call's end user) in spend reporting, over HTTP on both store engines: the
 * {@code end_user} of {@code /spend/logs} rows and its filter, {@code /global/spend/report}
 * by customer and for one customer, and a stored customer's spend in {@code /customer/info}.
 */
class CustomerSpendApiTest {
    private static final String A = VirtualKey.hash("sk-a");
    private static final String B = VirtualKey.hash("sk-b");
    /** One character longer than a customer id can be: refused before any upstream is called. */
    private static final String TOO_LONG = "x".repeat(256);

    private static String chat(String user) {
        return "{\"model\": \"gpt-a\", \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}], \"user\": \"" + user + "\"}";
    }

    /** The call's id, once its spend row is logged. */
    private static String logged(TestDatabase store, HttpResponse<String> answer) {
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        String callId = answer.headers().firstValue("x-litellm-call-id").orElseThrow();
        SpendRepository log = new SpendRepository(store.database());
        Eventually.until("call " + callId + " is logged", Duration.ofSeconds(10), () -> log.find(callId).isPresent());
        return callId;
    }

    @StoreTest
    void callsShowTheirEndUserAreFilteredByItAndAddToTheStoredCustomersSpend(TestDatabase store) throws Exception {
        try (ScriptedUpstream upstream = ScriptedUpstream.always("up", ANSWER);
                TestGateway gateway = atNow(store, upstream)) {
            assertThat(post(gateway, "/customer/new", "{\"user_id\": \"buyer\"}").statusCode()).isEqualTo(200);
            String forBuyer = logged(store, post(gateway, "/v1/chat/completions", chat("buyer")));
            String forStranger = logged(store, post(gateway, "/v1/chat/completions", chat("stranger")));
            assertThat(post(gateway, "/v1/chat/completions", chat(TOO_LONG)).statusCode()).isEqualTo(400);
            String forNone = logged(store, post(gateway, "/v1/chat/completions",
                    "{\"model\": \"gpt-a\", \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}"));

            // The gateway's clock is fixed, so the calls start at once and their order is not asserted.
            Map<String, String> endUsers = new HashMap<>();
            get(gateway, "/spend/logs").forEach(row -> endUsers.put(row.get("request_id").asText(), row.get("end_user").asText()));
            assertThat(endUsers).isEqualTo(Map.of(forBuyer, "buyer", forStranger, "stranger", forNone, ""));
            assertThat(get(gateway, "/spend/logs?end_user=buyer").findValuesAsText("request_id")).containsExactly(forBuyer);
            assertThat(get(gateway, "/spend/logs?end_user=nobody")).isEmpty();
            assertThat(get(gateway, "/spend/logs?start_date=2025-03-05&end_date=2025-03-05&summarize=false&end_user=stranger")
                    .findValuesAsText("request_id")).containsExactly(forStranger);

            // The spend log and the customer's spend are written in one transaction: the call is counted once, now.
            assertThat(get(gateway, "/customer/info?end_user_id=buyer").get("spend").asDouble()).isEqualTo(0.002);
            assertThat(get(gateway, "/global/spend/report?start_date=2025-03-05&end_date=2025-03-05&group_by=customer"))
                    .isEqualTo(json("""
                            [{"group_by_day": "2025-03-05T00:00:00+00:00", "customers": [
                              {"customer": "", "total_spend": 0.002, "metadata": [
                                {"model": null, "api_key": null, "spend": 0.002, "total_tokens": 15}]},
                              {"customer": "buyer", "total_spend": 0.002, "metadata": [
                                {"model": null, "api_key": null, "spend": 0.002, "total_tokens": 15}]},
                              {"customer": "stranger", "total_spend": 0.002, "metadata": [
                                {"model": null, "api_key": null, "spend": 0.002, "total_tokens": 15}]}]}]"""));
        }
    }

    private static SpendRow row(String callId, String key, String endUser, String cost, long prompt, String startedAt) {
        return SpendRow.builder(callId, "g1", Instant.parse(startedAt)).keyHash(key).endUser(endUser)
                .cost(new BigDecimal(cost)).promptTokens(prompt).completionTokens(1).build();
    }

    @StoreTest
    void byCustomerEachCustomersKeysPerDayWithCallsForNoCustomerUnderTheEmptyOne(TestDatabase store) throws Exception {
        new SpendLedger(store.database(), Clock.systemUTC()).post(List.of(
                row("r1", A, "acme", "0.5", 9, "2025-03-01T10:00:00Z"),
                row("r2", B, "acme", "0.25", 19, "2025-03-01T11:00:00Z"),
                row("r3", A, "acme", "1.0", 29, "2025-03-01T23:59:59.999999Z"),
                row("r4", A, null, "2.0", 39, "2025-03-01T12:00:00Z"),
                row("r5", null, "globex", "4.0", 49, "2025-03-01T13:00:00Z"),
                row("r6", null, null, "8.0", 59, "2025-03-01T14:00:00Z"),
                row("r7", B, "globex", "16.0", 69, "2025-03-02T00:00:00Z")));
        String[] acmeKeys = A.compareTo(B) < 0 ? new String[] {A, "1.5", "40", B, "0.25", "20"}
                : new String[] {B, "0.25", "20", A, "1.5", "40"};
        String acme = """
                {"customer": "acme", "total_spend": 1.75, "metadata": [
                  {"model": null, "api_key": "%s", "spend": %s, "total_tokens": %s},
                  {"model": null, "api_key": "%s", "spend": %s, "total_tokens": %s}]}""".formatted((Object[]) acmeKeys);
        String firstDay = """
                {"group_by_day": "2025-03-01T00:00:00+00:00", "customers": [
                  {"customer": "", "total_spend": 10.0, "metadata": [
                    {"model": null, "api_key": "%s", "spend": 2.0, "total_tokens": 40},
                    {"model": null, "api_key": null, "spend": 8.0, "total_tokens": 60}]},
                  %s,
                  {"customer": "globex", "total_spend": 4.0, "metadata": [
                    {"model": null, "api_key": null, "spend": 4.0, "total_tokens": 50}]}]}""".formatted(A, acme);
        String globexSecondDay = """
                {"group_by_day": "2025-03-02T00:00:00+00:00", "customers": [
                  {"customer": "globex", "total_spend": 16.0, "metadata": [
                    {"model": null, "api_key": "%s", "spend": 16.0, "total_tokens": 70}]}]}""".formatted(B);
        try (ScriptedUpstream upstream = ScriptedUpstream.always("up", ANSWER);
                TestGateway gateway = atNow(store, upstream)) {
            assertThat(get(gateway, "/global/spend/report?start_date=2025-03-01&end_date=2025-03-02&group_by=customer"))
                    .isEqualTo(json("[" + firstDay + "," + globexSecondDay + "]"));
            // One customer, whatever group_by says; days it has no spend are left out.
            assertThat(get(gateway, "/global/spend/report?start_date=2025-03-01&end_date=2025-03-02&customer_id=globex"))
                    .isEqualTo(json("""
                            [{"group_by_day": "2025-03-01T00:00:00+00:00", "customers": [
                              {"customer": "globex", "total_spend": 4.0, "metadata": [
                                {"model": null, "api_key": null, "spend": 4.0, "total_tokens": 50}]}]},
                             %s]""".formatted(globexSecondDay)));
            assertThat(get(gateway, "/global/spend/report?start_date=2025-03-02&end_date=2025-03-02&customer_id=acme")).isEmpty();
            assertThat(get(gateway, "/global/spend/report?start_date=2025-03-03&end_date=2025-03-31&group_by=customer")).isEmpty();
        }
    }

    @StoreTest
    void theLongestCustomerIdIsCountedWithItsKeyAndALongerOneUnderNoCustomer(TestDatabase store) throws Exception {
        String longest = "y".repeat(255);
        new SpendLedger(store.database(), Clock.systemUTC()).post(List.of(
                row("r1", A, longest, "0.5", 9, "2025-03-03T10:00:00Z"),
                row("r2", A, TOO_LONG, "0.25", 19, "2025-03-03T11:00:00Z")));
        try (ScriptedUpstream upstream = ScriptedUpstream.always("up", ANSWER);
                TestGateway gateway = atNow(store, upstream)) {
            assertThat(get(gateway, "/global/spend/report?start_date=2025-03-03&end_date=2025-03-03&group_by=customer"))
                    .isEqualTo(json("""
                            [{"group_by_day": "2025-03-03T00:00:00+00:00", "customers": [
                              {"customer": "", "total_spend": 0.25, "metadata": [
                                {"model": null, "api_key": "%1$s", "spend": 0.25, "total_tokens": 20}]},
                              {"customer": "%2$s", "total_spend": 0.5, "metadata": [
                                {"model": null, "api_key": "%1$s", "spend": 0.5, "total_tokens": 10}]}]}]"""
                            .formatted(A, longest)));
            assertThat(get(gateway, "/spend/logs?end_user=" + TOO_LONG).findValuesAsText("request_id")).containsExactly("r2");
        }
    }
}
