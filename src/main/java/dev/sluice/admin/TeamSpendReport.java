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
import java.util.function.Function;

/**
 * {@code /global/spend/report?group_by=team}, in LiteLLM's shape: per UTC day
 * {@code {"group_by_day", "teams": [{"team_name", "total_spend", "metadata": [{"model",
 * "api_key", "spend", "total_tokens"}]}]}}, built from the daily rollups.
 *
 * <p>A team's {@code total_spend} is its rollup. Its {@code metadata} are the rollups of its
 * keys by model group: a key counts under the team its calls were made under that day (a key
 * moved between teams within a day counts under the one it spent more under). Calls with no
 * team are the {@code Unassigned Team}, as in LiteLLM; calls with no key (the master key's)
 * appear there with a null {@code api_key}. A team is named by its alias, else its id (LiteLLM
 * names a team without an alias {@code Unassigned Team} too). Days with no call are left out.
 */
final class TeamSpendReport {
    static final String UNASSIGNED = "Unassigned Team";

    private TeamSpendReport() {}

    private static final class Team {
        BigDecimal spend = BigDecimal.ZERO;
        final List<ObjectNode> metadata = new ArrayList<>();
    }

    /** A team's metadata in a set order: by model, then key, the calls with no key last. */
    private static final Comparator<ObjectNode> BY_MODEL_THEN_KEY = Comparator
            .comparing((ObjectNode entry) -> entry.get("model").textValue())
            .thenComparing(entry -> entry.get("api_key").textValue(), Comparator.nullsLast(Comparator.naturalOrder()));

    /** @param teamName a team id's alias, when the team is stored and has one */
    static ArrayNode of(DailySpendRepository rollups, SpendDates dates, Function<String, Optional<String>> teamName) {
        Map<LocalDate, List<DailySpend>> teams = DayRollups.of(rollups, SpendDimension.TEAM, dates);
        Map<LocalDate, List<DailySpend>> keyTeams = DayRollups.of(rollups, SpendDimension.KEY_TEAM, dates);
        Map<LocalDate, List<DailySpend>> keyModels = DayRollups.of(rollups, SpendDimension.KEY_MODEL, dates);
        Map<LocalDate, List<DailySpend>> groups = DayRollups.of(rollups, SpendDimension.MODEL_GROUP, dates);
        Map<String, String> names = new HashMap<>();
        Function<String, String> name = teamId -> names.computeIfAbsent(teamId, id -> teamName.apply(id).orElse(id));
        ArrayNode answer = Json.MAPPER.createArrayNode();
        for (Map.Entry<LocalDate, List<DailySpend>> day : groups.entrySet()) {
            Map<String, Team> shown = new TreeMap<>();
            BigDecimal teamed = BigDecimal.ZERO;
            for (DailySpend team : teams.getOrDefault(day.getKey(), List.of())) {
                Team entry = shown.computeIfAbsent(name.apply(team.name()), n -> new Team());
                entry.spend = entry.spend.add(team.spend());
                teamed = teamed.add(team.spend());
            }
            Map<String, String> teamOfKey = teamOfKey(keyTeams.getOrDefault(day.getKey(), List.of()));
            Map<String, DailySpend> keyed = new HashMap<>();
            for (DailySpend keyModel : keyModels.getOrDefault(day.getKey(), List.of())) {
                String key = DayRollups.key(keyModel);
                String group = DayRollups.afterKey(keyModel);
                String team = Optional.ofNullable(teamOfKey.get(key)).map(name).orElse(UNASSIGNED);
                shown.computeIfAbsent(team, n -> new Team()).metadata.add(metadata(group, key, keyModel.spend(),
                        DayRollups.tokens(keyModel)));
                keyed.merge(group, keyModel, SpendReports::sum);
            }
            BigDecimal total = BigDecimal.ZERO;
            for (DailySpend group : day.getValue()) {
                total = total.add(group.spend());
                Optional<DailySpend> byKeys = Optional.ofNullable(keyed.get(group.name()));
                BigDecimal keyless = group.spend().subtract(byKeys.map(DailySpend::spend).orElse(BigDecimal.ZERO));
                long keylessTokens = DayRollups.tokens(group) - byKeys.map(DayRollups::tokens).orElse(0L);
                if (keyless.signum() > 0 || keylessTokens > 0) {
                    shown.computeIfAbsent(UNASSIGNED, n -> new Team()).metadata.add(metadata(group.name(), null, keyless,
                            keylessTokens));
                }
            }
            BigDecimal unassigned = total.subtract(teamed);
            if (unassigned.signum() > 0) {
                Team entry = shown.computeIfAbsent(UNASSIGNED, n -> new Team());
                entry.spend = entry.spend.add(unassigned);
            }
            ObjectNode shownDay = answer.addObject().put("group_by_day", DayRollups.dayShown(day.getKey()));
            ArrayNode listed = shownDay.putArray("teams");
            shown.forEach((label, team) -> {
                ArrayNode metadata = listed.addObject().put("team_name", label).put("total_spend", DayRollups.dollars(team.spend))
                        .putArray("metadata");
                team.metadata.stream().sorted(BY_MODEL_THEN_KEY).forEach(metadata::add);
            });
        }
        return answer;
    }

    /** Each key's team that day: the one it spent most under, when its calls were under several. */
    private static Map<String, String> teamOfKey(List<DailySpend> keyTeams) {
        Map<String, DailySpend> most = new HashMap<>();
        for (DailySpend keyTeam : keyTeams) {
            most.merge(DayRollups.key(keyTeam), keyTeam, (a, b) -> b.spend().compareTo(a.spend()) > 0 ? b : a);
        }
        Map<String, String> teams = new HashMap<>();
        most.forEach((key, keyTeam) -> teams.put(key, DayRollups.afterKey(keyTeam)));
        return teams;
    }

    static ObjectNode metadata(String model, String key, BigDecimal spend, long tokens) {
        ObjectNode entry = Json.MAPPER.createObjectNode();
        entry.put("model", model);
        entry.put("api_key", key);
        entry.put("spend", DayRollups.dollars(spend));
        entry.put("total_tokens", tokens);
        return entry;
    }
}
