package dev.sluice.admin;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.store.SpendRow;
import dev.sluice.wire.Json;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The spend of {@code /spend/logs} between two dates, summarized as LiteLLM does by default:
 * one entry per UTC day from the first day with a call to the end date, each
 * {@code {"startTime": day, "spend": total, <key hash>: its spend, ..., "users": {user: spend},
 * "models": {model: spend}}}; days after the last call up to the end date are there with
 * zero spend. No call in the range at all is an empty list. Calls with no key or no user add
 * to the day's spend but name no key or user.
 *
 * <p>Memory holds one total per day and per key, user and model seen that day, never rows.
 */
final class SpendLogSummary {
    private final Map<LocalDate, Day> days = new TreeMap<>();
    private final Function<SpendRow, String> modelOf;

    /** @param modelOf the name a row's model is shown under, as in its {@link SpendLogView} */
    SpendLogSummary(Function<SpendRow, String> modelOf) {
        this.modelOf = modelOf;
    }

    private static final class Day {
        BigDecimal spend = BigDecimal.ZERO;
        final Map<String, BigDecimal> keys = new TreeMap<>();
        final Map<String, BigDecimal> users = new TreeMap<>();
        final Map<String, BigDecimal> models = new TreeMap<>();
    }

    void add(SpendRow row) {
        Day day = days.computeIfAbsent(LocalDate.ofInstant(row.startedAt(), ZoneOffset.UTC), d -> new Day());
        day.spend = day.spend.add(row.cost());
        row.accounts().keyHash().ifPresent(key -> day.keys.merge(key, row.cost(), BigDecimal::add));
        row.accounts().userId().ifPresent(user -> day.users.merge(user, row.cost(), BigDecimal::add));
        day.models.merge(modelOf.apply(row), row.cost(), BigDecimal::add);
    }

    ArrayNode answer(LocalDate end) {
        ArrayNode answer = Json.MAPPER.createArrayNode();
        LocalDate last = null;
        for (Map.Entry<LocalDate, Day> entry : days.entrySet()) {
            Day day = entry.getValue();
            ObjectNode shown = answer.addObject();
            shown.put("startTime", entry.getKey().toString());
            shown.put("spend", day.spend.doubleValue());
            day.keys.forEach((key, spend) -> shown.put(key, spend.doubleValue()));
            ObjectNode users = shown.putObject("users");
            day.users.forEach((user, spend) -> users.put(user, spend.doubleValue()));
            ObjectNode models = shown.putObject("models");
            day.models.forEach((model, spend) -> models.put(model, spend.doubleValue()));
            last = entry.getKey();
        }
        for (LocalDate day = last == null ? null : last.plusDays(1); day != null && !day.isAfter(end); day = day.plusDays(1)) {
            ObjectNode shown = answer.addObject();
            shown.put("startTime", day.toString());
            shown.put("spend", 0);
            shown.putObject("users");
            shown.putObject("models");
        }
        return answer;
    }
}
