package dev.sluice.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.sluice.accounts.Caller;
import dev.sluice.admin.AccountCalls.Access;
import dev.sluice.http.QueryParams;
import dev.sluice.store.SpendLogFilter;
import dev.sluice.store.SpendLogReader;
import dev.sluice.store.SpendRow;
import dev.sluice.store.Team;
import dev.sluice.store.VirtualKey;
import dev.sluice.wire.ApiError;
import dev.sluice.wire.Json;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Optional;

/**
 * LiteLLM's spend reporting API: {@code GET /spend/logs}, {@code GET /global/spend/logs},
 * {@code GET /global/spend/report} and {@code POST /spend/calculate}, with LiteLLM's
 * parameters and answer shapes. The reports and the calculator take the master key; the two
 * log routes also take a virtual key, which reads only its own rows (LiteLLM opens them
 * through user roles, which Sluice does not have).
 *
 * <p>{@code /spend/logs} reads the spend log, which keeps rows for the retention period;
 * the reports by day read the daily rollups, which stay.
 */
public final class SpendHandlers {
    private static final int DEFAULT_PAGE_SIZE = 100;
    private static final int MAX_PAGE_SIZE = 1000;
    /** How far back {@code /global/spend/logs} reads, as LiteLLM's view of the last 30 days. */
    private static final int GLOBAL_LOG_DAYS = 30;

    private final SpendApi api;
    private final AccountCalls calls;

    /** Create on the event loop whose requests it answers. */
    public SpendHandlers(Vertx vertx, SpendApi api) {
        this.api = api;
        this.calls = new AccountCalls(vertx, api.accounts(), "spend");
    }

    /** {@code GET /spend/logs}: the log's rows, newest first, or with both dates their spend per day. */
    public void logs(HttpServerRequest request) {
        calls.answer(request, "/spend/logs", Access.MASTER_KEY_OR_OWN_KEY, this::logged);
    }

    /** {@code GET /global/spend/logs}: spend per day over the last 30 days, of every call or of one key's. */
    public void globalLogs(HttpServerRequest request) {
        calls.answer(request, "/global/spend/logs", Access.MASTER_KEY_OR_OWN_KEY, call -> SpendReports.perDay(api.rollups(),
                lastDays(), askedKey(call, "/global/spend/logs")));
    }

    /** {@code GET /global/spend/report}: spend between two dates by team, customer, key, model group, tag or day. */
    public void report(HttpServerRequest request) {
        calls.answer(request, "/global/spend/report", Access.MASTER_KEY, this::reported);
    }

    /** {@code POST /spend/calculate}: what a call would cost, or what an answer cost. */
    public void calculate(HttpServerRequest request) {
        calls.answer(request, "/spend/calculate", Access.MASTER_KEY,
                call -> SpendEstimate.of(call.body(), api.models(), api.cost()));
    }

    private JsonNode logged(AccountCall call) {
        QueryParams query = call.query();
        Optional<SpendDates> dates = SpendDates.of(query);
        boolean summarize = query.flag("summarize", true);
        SpendLogFilter filter = new SpendLogFilter(query.text("request_id"), askedKey(call, "/spend/logs"),
                query.text("user_id"), query.text("end_user"), dates.map(SpendDates::from).orElse(Instant.EPOCH),
                dates.map(SpendDates::to).orElse(SpendLogFilter.END_OF_TIME));
        if (dates.isPresent() && summarize) {
            SpendLogSummary summary = new SpendLogSummary(row -> SpendLogView.model(row, api.models()));
            api.log().each(filter, summary::add);
            return summary.answer(dates.get().end());
        }
        int size = query.number("page_size", DEFAULT_PAGE_SIZE, 1, MAX_PAGE_SIZE);
        int page = query.number("page", 1, 1, SpendLogReader.MAX_REACH);
        if ((long) page * size > SpendLogReader.MAX_REACH) {
            throw ApiError.invalidRequest("Invalid 'page': page " + page + " of " + size + " rows reaches past the "
                    + SpendLogReader.MAX_REACH + " newest rows (expected: page x page_size <= " + SpendLogReader.MAX_REACH
                    + "; narrow the rows with start_date and end_date instead).", "page", "invalid_value");
        }
        ArrayNode rows = Json.MAPPER.createArrayNode();
        for (SpendRow row : api.log().newest(filter, (page - 1) * size, size)) {
            rows.add(SpendLogView.of(row, api.models()));
        }
        return rows;
    }

    private JsonNode reported(AccountCall call) {
        QueryParams query = call.query();
        SpendDates dates = SpendDates.required(query);
        if (query.text("internal_user_id").isPresent()) {
            throw ApiError.invalidRequest("Invalid 'internal_user_id': a report for one internal user is not served: the "
                    + "daily rollups count spend by key, team, customer, model group and tag (expected: api_key, customer_id, "
                    + "or no filter).", "internal_user_id", "unsupported_parameter");
        }
        Optional<String> key = query.text("api_key").map(SpendHandlers::keyHash);
        if (key.isPresent()) {
            return SpendReports.byKey(api.rollups(), dates, key);
        }
        Optional<String> customer = query.text("customer_id");
        if (customer.isPresent()) {
            return CustomerSpendReport.of(api.rollups(), dates, customer);
        }
        String groupBy = query.text("group_by").orElse("team");
        return switch (groupBy) {
            case "team" -> TeamSpendReport.of(api.rollups(), dates,
                    teamId -> api.accounts().teams().findById(teamId).flatMap(Team::teamAlias));
            case "api_key" -> SpendReports.byKey(api.rollups(), dates, Optional.empty());
            case "model" -> SpendReports.byModel(api.rollups(), dates);
            case "tag" -> SpendReports.byTag(api.rollups(), dates);
            case "deployment" -> SpendReports.byDeployment(api.rollups(), dates);
            case "day" -> SpendReports.byDay(api.rollups(), dates);
            case "customer" -> CustomerSpendReport.of(api.rollups(), dates, Optional.empty());
            default -> throw ApiError.invalidRequest("Invalid 'group_by': \"" + (groupBy.length() <= 40 ? groupBy
                    : groupBy.substring(0, 40) + "...") + "\" (expected: team, customer, api_key, model, deployment, tag or day).", "group_by",
                    "invalid_value");
        };
    }

    /**
     * The key whose rows a log route reads: the one {@code api_key} names, or every key's. A
     * virtual key reads its own rows only: naming no key reads its own, naming another is refused.
     */
    private static Optional<String> askedKey(AccountCall call, String route) {
        Optional<String> asked = call.query().text("api_key").map(SpendHandlers::keyHash);
        if (!(call.caller() instanceof Caller.Keyed keyed)) {
            return asked;
        }
        if (asked.isPresent() && !asked.get().equals(keyed.keyHash())) {
            throw new ApiError(403, "permission_error", "A virtual key may read only its own " + route + "; "
                    + keyed.label() + " asked about another key.", "api_key", "permission_error");
        }
        return Optional.of(keyed.keyHash());
    }

    /** The last 30 days and today, in UTC. */
    private SpendDates lastDays() {
        LocalDate today = LocalDate.ofInstant(api.accounts().clock().instant(), ZoneOffset.UTC);
        return new SpendDates(today.minusDays(GLOBAL_LOG_DAYS), today);
    }

    /** A key as LiteLLM's spend routes take it: the key itself ({@code sk-...}), hashed, or its hash as stored. */
    static String keyHash(String keyOrHash) {
        return keyOrHash.startsWith("sk-") ? VirtualKey.hash(keyOrHash) : keyOrHash;
    }
}
