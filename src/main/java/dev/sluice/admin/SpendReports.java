package dev.sluice.admin;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.store.DailySpend;
import dev.sluice.store.DailySpendRepository;
import dev.sluice.store.SpendDimension;
import dev.sluice.wire.Json;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.BiConsumer;

/**
 * The spend reports read from the daily rollups, other than by team ({@link TeamSpendReport}):
 * LiteLLM's {@code /global/spend/report?group_by=api_key} and {@code /global/spend/logs}, and
 * Sluice's reports by model group, deployment, tag and day in the same per-day shape as LiteLLM's by team.
 * A model is named by its model group: the rollups count calls by group, not by the
 * deployment's model.
 */
final class SpendReports {
    private SpendReports() {}

    /**
     * By key over the whole range, most spent first: {@code [{"api_key", "total_cost",
     * "total_input_tokens", "total_output_tokens", "model_details": [{"model", "total_cost",
     * "total_input_tokens", "total_output_tokens"}]}]}; only {@code onlyKey} when given.
     */
    static ArrayNode byKey(DailySpendRepository rollups, SpendDates dates, Optional<String> onlyKey) {
        Map<String, Map<String, DailySpend>> keys = new TreeMap<>();
        for (DailySpend keyModel : rollups.between(SpendDimension.KEY_MODEL, dates.start(), dates.end())) {
            String key = DayRollups.key(keyModel);
            if (onlyKey.isEmpty() || onlyKey.get().equals(key)) {
                keys.computeIfAbsent(key, k -> new TreeMap<>()).merge(DayRollups.afterKey(keyModel), keyModel, SpendReports::sum);
            }
        }
        List<ObjectNode> shown = new ArrayList<>();
        keys.forEach((key, models) -> {
            ObjectNode entry = Json.MAPPER.createObjectNode().put("api_key", key);
            BigDecimal cost = BigDecimal.ZERO;
            long input = 0;
            long output = 0;
            ArrayNode details = Json.MAPPER.createArrayNode();
            for (Map.Entry<String, DailySpend> model : models.entrySet()) {
                DailySpend rollup = model.getValue();
                cost = cost.add(rollup.spend());
                input += rollup.promptTokens();
                output += rollup.completionTokens();
                details.addObject().put("model", model.getKey()).put("total_cost", DayRollups.dollars(rollup.spend()))
                        .put("total_input_tokens", rollup.promptTokens()).put("total_output_tokens", rollup.completionTokens());
            }
            entry.put("total_cost", DayRollups.dollars(cost)).put("total_input_tokens", input)
                    .put("total_output_tokens", output).set("model_details", details);
            shown.add(entry);
        });
        shown.sort(Comparator.comparing((ObjectNode entry) -> entry.get("total_cost").doubleValue()).reversed());
        ArrayNode answer = Json.MAPPER.createArrayNode();
        shown.forEach(answer::add);
        return answer;
    }

    /**
     * By model group, per day: {@code [{"group_by_day", "models": [{"model", "total_spend",
     * "total_tokens", "api_requests", "metadata": [{"api_key", "spend", "total_tokens"}]}]}]};
     * calls with no key (the master key's) count under a null {@code api_key}.
     */
    static ArrayNode byModel(DailySpendRepository rollups, SpendDates dates) {
        Map<LocalDate, List<DailySpend>> keyModels = DayRollups.of(rollups, SpendDimension.KEY_MODEL, dates);
        ArrayNode answer = Json.MAPPER.createArrayNode();
        DayRollups.of(rollups, SpendDimension.MODEL_GROUP, dates).forEach((day, groups) -> {
            Map<String, List<DailySpend>> byGroup = new HashMap<>();
            for (DailySpend keyModel : keyModels.getOrDefault(day, List.of())) {
                byGroup.computeIfAbsent(DayRollups.afterKey(keyModel), g -> new ArrayList<>()).add(keyModel);
            }
            ArrayNode models = answer.addObject().put("group_by_day", DayRollups.dayShown(day)).putArray("models");
            for (DailySpend group : groups) {
                ObjectNode entry = totals(models.addObject().put("model", group.name()), group);
                ArrayNode metadata = entry.putArray("metadata");
                BigDecimal keyless = group.spend();
                long keylessTokens = DayRollups.tokens(group);
                for (DailySpend keyModel : byGroup.getOrDefault(group.name(), List.of())) {
                    metadata.addObject().put("api_key", DayRollups.key(keyModel))
                            .put("spend", DayRollups.dollars(keyModel.spend())).put("total_tokens", DayRollups.tokens(keyModel));
                    keyless = keyless.subtract(keyModel.spend());
                    keylessTokens -= DayRollups.tokens(keyModel);
                }
                if (keyless.signum() > 0 || keylessTokens > 0) {
                    metadata.addObject().putNull("api_key").put("spend", DayRollups.dollars(keyless))
                            .put("total_tokens", keylessTokens);
                }
            }
        });
        return answer;
    }

    /** By tag, per day: {@code [{"group_by_day", "tags": [{"tag", "total_spend", "total_tokens", "api_requests"}]}]}. */
    static ArrayNode byTag(DailySpendRepository rollups, SpendDates dates) {
        return listedPerDay(rollups, SpendDimension.TAG, dates, "tags", (entry, tag) -> entry.put("tag", tag.name()));
    }

    /**
     * By deployment, per day: {@code [{"group_by_day", "deployments": [{"model_id", "model_group",
     * "total_spend", "total_tokens", "api_requests"}]}]}; a deployment that served two groups
     * (a wildcard's) is listed under each.
     */
    static ArrayNode byDeployment(DailySpendRepository rollups, SpendDates dates) {
        return listedPerDay(rollups, SpendDimension.DEPLOYMENT_GROUP, dates, "deployments", (entry, deployment) -> {
            int separator = deployment.name().indexOf(SpendDimension.DEPLOYMENT_GROUP_SEPARATOR);
            entry.put("model_id", deployment.name().substring(0, separator))
                    .put("model_group", deployment.name().substring(separator + 1));
        });
    }

    /**
     * The per-day shape of the reports by tag and by deployment: {@code [{"group_by_day", listName:
     * [{…names, "total_spend", "total_tokens", "api_requests"}]}]}, where {@code names} writes what
     * names a rollup before its totals.
     */
    private static ArrayNode listedPerDay(DailySpendRepository rollups, SpendDimension dimension, SpendDates dates,
            String listName, BiConsumer<ObjectNode, DailySpend> names) {
        ArrayNode answer = Json.MAPPER.createArrayNode();
        DayRollups.of(rollups, dimension, dates).forEach((day, ofDay) -> {
            ArrayNode listed = answer.addObject().put("group_by_day", DayRollups.dayShown(day)).putArray(listName);
            for (DailySpend rollup : ofDay) {
                ObjectNode entry = listed.addObject();
                names.accept(entry, rollup);
                totals(entry, rollup);
            }
        });
        return answer;
    }

    /** A rollup's {@code total_spend, total_tokens, api_requests}, in that order. */
    private static ObjectNode totals(ObjectNode entry, DailySpend rollup) {
        return entry.put("total_spend", DayRollups.dollars(rollup.spend())).put("total_tokens", DayRollups.tokens(rollup))
                .put("api_requests", rollup.requests());
    }

    /** Every call, per day: {@code [{"group_by_day", "total_spend", "total_tokens", "api_requests"}]}. */
    static ArrayNode byDay(DailySpendRepository rollups, SpendDates dates) {
        ArrayNode answer = Json.MAPPER.createArrayNode();
        DayRollups.of(rollups, SpendDimension.MODEL_GROUP, dates).forEach((day, groups) -> {
            DailySpend total = groups.stream().reduce(SpendReports::sum).orElseThrow();
            totals(answer.addObject().put("group_by_day", DayRollups.dayShown(day)), total);
        });
        return answer;
    }

    /**
     * LiteLLM's {@code /global/spend/logs}: spend per UTC day, oldest first, over the dates:
     * {@code [{"date", "spend"}]} of every call, or {@code [{"date", "spend", "api_key"}]} of
     * one key's.
     */
    static ArrayNode perDay(DailySpendRepository rollups, SpendDates dates, Optional<String> key) {
        ArrayNode answer = Json.MAPPER.createArrayNode();
        if (key.isPresent()) {
            for (DailySpend day : rollups.of(SpendDimension.KEY, key.get(), dates.start(), dates.end())) {
                answer.addObject().put("date", day.day().toString()).put("spend", DayRollups.dollars(day.spend()))
                        .put("api_key", key.get());
            }
            return answer;
        }
        DayRollups.of(rollups, SpendDimension.MODEL_GROUP, dates).forEach((day, groups) -> answer.addObject()
                .put("date", day.toString())
                .put("spend", DayRollups.dollars(groups.stream().map(DailySpend::spend).reduce(BigDecimal.ZERO, BigDecimal::add))));
        return answer;
    }

    static DailySpend sum(DailySpend a, DailySpend b) {
        return new DailySpend(a.day(), a.dimension(), a.name(), a.requests() + b.requests(), a.successes() + b.successes(),
                a.failures() + b.failures(), a.promptTokens() + b.promptTokens(), a.completionTokens() + b.completionTokens(),
                a.cachedTokens() + b.cachedTokens(), a.spend().add(b.spend()));
    }
}
