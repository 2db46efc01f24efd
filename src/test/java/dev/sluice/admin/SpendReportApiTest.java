package dev.sluice.admin;

import static dev.sluice.admin.SpendLogsApiTest.ANSWER;
import static dev.sluice.admin.SpendLogsApiTest.MASTER;
import static dev.sluice.admin.SpendLogsApiTest.assertRefused;
import static dev.sluice.admin.SpendLogsApiTest.atNow;
import static dev.sluice.admin.SpendLogsApiTest.get;
import static dev.sluice.admin.SpendLogsApiTest.json;
import static dev.sluice.admin.SpendLogsApiTest.post;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.store.SpendLedger;
import dev.sluice.store.SpendRow;
import dev.sluice.store.VirtualKey;
import dev.sluice.testing.ScriptedUpstream;
import dev.sluice.testing.StoreTest;
import dev.sluice.testing.TestDatabase;
import dev.sluice.testing.TestGateway;
import java.math.BigDecimal;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Instant;
import java.util.List;

/**
 * {@code /global/spend/report} and {@code /global/spend/logs} over HTTP, on both store
 * engines, read from the daily rollups of rows the ledger logged: exact shapes and sums, and
 * the UTC day on each side of midnight.
 */
class SpendReportApiTest {
    private static final String A = VirtualKey.hash("sk-a");
    private static final String B = VirtualKey.hash("sk-b");
    private static final String C = VirtualKey.hash("sk-c");

    private static SpendRow row(String callId, String key, String team, String group, String cost, long prompt, long completion,
            String startedAt, String... tags) {
        return SpendRow.builder(callId, group, Instant.parse(startedAt)).keyHash(key).teamId(team).cost(new BigDecimal(cost))
                .promptTokens(prompt).completionTokens(completion).tags(List.of(tags)).build();
    }

    /** Key A in team t1 (alias Search), key B in no team, key C in team t2 (no alias), and the master key. */
    private static void logCalls(TestDatabase store) {
        new SpendLedger(store.database(), Clock.systemUTC()).post(List.of(
                row("r1", A, "t1", "g1", "0.5", 100, 10, "2025-03-01T10:00:00Z", "prod"),
                row("r2", A, "t1", "g2", "0.25", 20, 2, "2025-03-01T11:00:00Z"),
                row("r3", B, null, "g1", "1.0", 50, 5, "2025-03-01T23:59:59.999999Z", "prod", "batch"),
                row("r4", null, null, "g1", "2.0", 10, 0, "2025-03-01T12:00:00Z"),
                row("r5", A, "t1", "g1", "4.0", 1, 1, "2025-03-02T00:00:00Z"),
                row("r6", C, "t2", "g2", "0.125", 8, 0, "2025-03-01T09:00:00Z"),
                row("r7", null, null, "g1", "8", 1, 0, "2025-02-02T23:00:00Z"),
                row("r8", null, null, "g1", "16", 1, 0, "2025-02-03T01:00:00Z")));
    }

    private static TestGateway gateway(TestDatabase store, ScriptedUpstream upstream) {
        TestGateway gateway = atNow(store, upstream);
        assertThat(post(gateway, "/team/new", "{\"team_id\": \"t1\", \"team_alias\": \"Search\"}").statusCode()).isEqualTo(200);
        assertThat(post(gateway, "/team/new", "{\"team_id\": \"t2\"}").statusCode()).isEqualTo(200);
        return gateway;
    }

    @StoreTest
    void byTeamEachTeamsKeysAndModelsPerDayWithTheRestUnassigned(TestDatabase store) throws Exception {
        logCalls(store);
        try (ScriptedUpstream upstream = ScriptedUpstream.always("up", ANSWER);
                TestGateway gateway = gateway(store, upstream)) {
            String firstDay = """
                    {"group_by_day": "2025-03-01T00:00:00+00:00", "teams": [
                      {"team_name": "Search", "total_spend": 0.75, "metadata": [
                        {"model": "g1", "api_key": "%1$s", "spend": 0.5, "total_tokens": 110},
                        {"model": "g2", "api_key": "%1$s", "spend": 0.25, "total_tokens": 22}]},
                      {"team_name": "Unassigned Team", "total_spend": 3.0, "metadata": [
                        {"model": "g1", "api_key": "%2$s", "spend": 1.0, "total_tokens": 55},
                        {"model": "g1", "api_key": null, "spend": 2.0, "total_tokens": 10}]},
                      {"team_name": "t2", "total_spend": 0.125, "metadata": [
                        {"model": "g2", "api_key": "%3$s", "spend": 0.125, "total_tokens": 8}]}]}""".formatted(A, B, C);
            String secondDay = """
                    {"group_by_day": "2025-03-02T00:00:00+00:00", "teams": [
                      {"team_name": "Search", "total_spend": 4.0, "metadata": [
                        {"model": "g1", "api_key": "%s", "spend": 4.0, "total_tokens": 2}]}]}""".formatted(A);

            assertThat(get(gateway, "/global/spend/report?start_date=2025-03-01&end_date=2025-03-01"))
                    .isEqualTo(json("[" + firstDay + "]"));
            assertThat(get(gateway, "/global/spend/report?start_date=2025-03-02&end_date=2025-03-02&group_by=team"))
                    .isEqualTo(json("[" + secondDay + "]"));
            assertThat(get(gateway, "/global/spend/report?start_date=2025-03-01&end_date=2025-03-02"))
                    .isEqualTo(json("[" + firstDay + "," + secondDay + "]"));
            assertThat(get(gateway, "/global/spend/report?start_date=2025-03-03&end_date=2025-03-31")).isEmpty();
        }
    }

    @StoreTest
    void byKeyModelTagAndDay(TestDatabase store) throws Exception {
        logCalls(store);
        try (ScriptedUpstream upstream = ScriptedUpstream.always("up", ANSWER);
                TestGateway gateway = gateway(store, upstream)) {
            String keyA = """
                    {"api_key": "%s", "total_cost": 4.75, "total_input_tokens": 121, "total_output_tokens": 13, "model_details": [
                      {"model": "g1", "total_cost": 4.5, "total_input_tokens": 101, "total_output_tokens": 11},
                      {"model": "g2", "total_cost": 0.25, "total_input_tokens": 20, "total_output_tokens": 2}]}""".formatted(A);
            assertThat(get(gateway, "/global/spend/report?start_date=2025-03-01&end_date=2025-03-02&group_by=api_key"))
                    .isEqualTo(json("[" + keyA + """
                            ,{"api_key": "%s", "total_cost": 1.0, "total_input_tokens": 50, "total_output_tokens": 5, "model_details": [
                              {"model": "g1", "total_cost": 1.0, "total_input_tokens": 50, "total_output_tokens": 5}]}
                            ,{"api_key": "%s", "total_cost": 0.125, "total_input_tokens": 8, "total_output_tokens": 0, "model_details": [
                              {"model": "g2", "total_cost": 0.125, "total_input_tokens": 8, "total_output_tokens": 0}]}]"""
                            .formatted(B, C)));
            // One key, named by the key or its hash, whatever group_by says.
            assertThat(get(gateway, "/global/spend/report?start_date=2025-03-01&end_date=2025-03-02&api_key=sk-a"))
                    .isEqualTo(json("[" + keyA + "]"));
            assertThat(get(gateway, "/global/spend/report?start_date=2025-03-02&end_date=2025-03-02&api_key=" + A))
                    .isEqualTo(json("""
                            [{"api_key": "%s", "total_cost": 4.0, "total_input_tokens": 1, "total_output_tokens": 1, "model_details": [
                              {"model": "g1", "total_cost": 4.0, "total_input_tokens": 1, "total_output_tokens": 1}]}]""".formatted(A)));

            String[] g1Keys = A.compareTo(B) < 0 ? new String[] {A, "0.5", "110", B, "1.0", "55"}
                    : new String[] {B, "1.0", "55", A, "0.5", "110"};
            String[] g2Keys = A.compareTo(C) < 0 ? new String[] {A, "0.25", "22", C, "0.125", "8"}
                    : new String[] {C, "0.125", "8", A, "0.25", "22"};
            assertThat(get(gateway, "/global/spend/report?start_date=2025-03-01&end_date=2025-03-01&group_by=model"))
                    .isEqualTo(json("""
                            [{"group_by_day": "2025-03-01T00:00:00+00:00", "models": [
                              {"model": "g1", "total_spend": 3.5, "total_tokens": 175, "api_requests": 3, "metadata": [
                                {"api_key": "%s", "spend": %s, "total_tokens": %s}, {"api_key": "%s", "spend": %s, "total_tokens": %s},
                                {"api_key": null, "spend": 2.0, "total_tokens": 10}]},
                              {"model": "g2", "total_spend": 0.375, "total_tokens": 30, "api_requests": 2, "metadata": [
                                {"api_key": "%s", "spend": %s, "total_tokens": %s}, {"api_key": "%s", "spend": %s, "total_tokens": %s}]}]}]"""
                            .formatted((Object[]) concat(g1Keys, g2Keys))));
            assertThat(get(gateway, "/global/spend/report?start_date=2025-03-01&end_date=2025-03-02&group_by=tag"))
                    .isEqualTo(json("""
                            [{"group_by_day": "2025-03-01T00:00:00+00:00", "tags": [
                              {"tag": "batch", "total_spend": 1.0, "total_tokens": 55, "api_requests": 1},
                              {"tag": "prod", "total_spend": 1.5, "total_tokens": 165, "api_requests": 2}]}]"""));
            assertThat(get(gateway, "/global/spend/report?start_date=2025-03-01&end_date=2025-03-02&group_by=day"))
                    .isEqualTo(json("""
                            [{"group_by_day": "2025-03-01T00:00:00+00:00", "total_spend": 3.875, "total_tokens": 205, "api_requests": 5},
                             {"group_by_day": "2025-03-02T00:00:00+00:00", "total_spend": 4.0, "total_tokens": 2, "api_requests": 1}]"""));
        }
    }

    private static String[] concat(String[] a, String[] b) {
        String[] all = new String[a.length + b.length];
        System.arraycopy(a, 0, all, 0, a.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    @StoreTest
    void globalSpendLogsIsSpendPerDayOverTheLast30Days(TestDatabase store) throws Exception {
        logCalls(store);
        try (ScriptedUpstream upstream = ScriptedUpstream.always("up", ANSWER);
                TestGateway gateway = gateway(store, upstream)) {
            // Today is 2025-03-05: from 2025-02-03 on; the call of 2025-02-02 is a day too old.
            assertThat(get(gateway, "/global/spend/logs")).isEqualTo(json("""
                    [{"date": "2025-02-03", "spend": 16.0}, {"date": "2025-03-01", "spend": 3.875},
                     {"date": "2025-03-02", "spend": 4.0}]"""));
            assertThat(get(gateway, "/global/spend/logs?api_key=sk-a")).isEqualTo(json("""
                    [{"date": "2025-03-01", "spend": 0.75, "api_key": "%1$s"},
                     {"date": "2025-03-02", "spend": 4.0, "api_key": "%1$s"}]""".formatted(A)));
        }
    }

    @StoreTest
    void badReportParametersAreRefusedNamingTheParameter(TestDatabase store) throws Exception {
        try (ScriptedUpstream upstream = ScriptedUpstream.always("up", ANSWER);
                TestGateway gateway = gateway(store, upstream)) {
            assertRefused(gateway, "/global/spend/report", "start_date", "missing_required_parameter");
            assertRefused(gateway, "/global/spend/report?start_date=2025-03-01", "end_date", "missing_required_parameter");
            assertRefused(gateway, "/global/spend/report?start_date=03/01/2025&end_date=2025-03-01", "start_date",
                    "invalid_value");
            assertRefused(gateway, "/global/spend/report?start_date=2025-03-01&end_date=2025-03-01&group_by=weekly", "group_by",
                    "invalid_value");
            assertRefused(gateway, "/global/spend/report?start_date=2025-03-01&end_date=2025-03-01&internal_user_id=ada",
                    "internal_user_id", "unsupported_parameter");
            String key = json(post(gateway, "/key/generate", "{}").body()).get("key").asText();
            for (String path : List.of("/global/spend/report?start_date=2025-03-01&end_date=2025-03-01",
                    "/global/spend/logs?api_key=" + VirtualKey.hash(MASTER))) {
                HttpResponse<String> byKey = gateway.get(path, "Authorization", "Bearer " + key);
                assertThat(byKey.statusCode()).as(path).isEqualTo(403);
                JsonNode error = json(byKey.body()).get("error");
                assertThat(error.get("type").asText()).isEqualTo("permission_error");
            }
            assertThat(gateway.get("/global/spend/logs", "Authorization", "Bearer " + MASTER).statusCode()).isEqualTo(200);
        }
    }
}
