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
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * {@code /global/spend/report?group_by=customer}, in LiteLLM's shape: per UTC day
 * {@code {"group_by_day", "customers": [{"customer", "total_spend", "metadata": [{"model",
 * "api_key", "spend", "total_tokens"}]}]}}, built from the daily rollups by end user.
 *
 * <p>A customer is a call's end user (its body's {@code user}). Its {@code metadata} breaks its
 * spend down by key, with a null {@code model}: the rollups count a customer's calls by key, not
 * by key and model. Calls with no end user are the customer {@code ""}, as LiteLLM's
 * {@code end_user} column holds them; calls with no key (the master key's) appear with a null
 * {@code api_key}. With {@code onlyCustomer}, that customer's entries alone, on the days it has
 * spend. Days with no call are left out.
 */
final class CustomerSpendReport {
    /** The customer of calls that named none, as LiteLLM's spend log leaves {@code end_user}. */
    static final String NO_CUSTOMER = "";

    private CustomerSpendReport() {}

    /** A customer's calls of a day, and those of its calls each key made. */
    private record Customer(DailySpend total, Map<String, DailySpend> byKey) {
        Customer(DailySpend total) {
            this(total, new TreeMap<>());
        }

        /** What the customer's calls with no key (the master key's) spent: what its keys do not account for. */
        Optional<DailySpend> keyless() {
            DailySpend left = minus(total, List.copyOf(byKey.values()));
            return left.spend().signum() > 0 || DayRollups.tokens(left) > 0 ? Optional.of(left) : Optional.empty();
        }
    }

    static ArrayNode of(DailySpendRepository rollups, SpendDates dates, Optional<String> onlyCustomer) {
        Map<LocalDate, List<DailySpend>> customers = DayRollups.of(rollups, SpendDimension.END_USER, dates);
        Map<LocalDate, List<DailySpend>> customerKeys = DayRollups.of(rollups, SpendDimension.END_USER_KEY, dates);
        Map<LocalDate, List<DailySpend>> keys = DayRollups.of(rollups, SpendDimension.KEY, dates);
        ArrayNode answer = Json.MAPPER.createArrayNode();
        DayRollups.of(rollups, SpendDimension.MODEL_GROUP, dates).forEach((day, groups) -> {
            Map<String, Customer> shown = shownOn(groups, customers.getOrDefault(day, List.of()),
                    customerKeys.getOrDefault(day, List.of()), keys.getOrDefault(day, List.of()));
            onlyCustomer.ifPresent(only -> shown.keySet().retainAll(List.of(only)));
            if (shown.isEmpty()) {
                return;
            }
            ArrayNode listed = answer.addObject().put("group_by_day", DayRollups.dayShown(day)).putArray("customers");
            shown.forEach((name, customer) -> {
                ArrayNode metadata = listed.addObject().put("customer", name)
                        .put("total_spend", DayRollups.dollars(customer.total().spend())).putArray("metadata");
                customer.byKey().forEach((key, rollup) -> metadata.add(entry(key, rollup.spend(), DayRollups.tokens(rollup))));
                customer.keyless().ifPresent(rollup -> metadata.add(entry(null, rollup.spend(), DayRollups.tokens(rollup))));
            });
        });
        return answer;
    }

    /** One day's customers by name: each named one, and what is left of each key and of the day under {@code ""}. */
    private static Map<String, Customer> shownOn(List<DailySpend> groups, List<DailySpend> customers,
            List<DailySpend> customerKeys, List<DailySpend> keys) {
        Map<String, Customer> shown = new TreeMap<>();
        for (DailySpend customer : customers) {
            shown.put(customer.name(), new Customer(customer));
        }
        Map<String, List<DailySpend>> keyedForCustomers = new TreeMap<>();
        for (DailySpend customerKey : customerKeys) {
            String key = DayRollups.key(customerKey);
            Customer customer = shown.get(DayRollups.afterKey(customerKey));
            if (customer != null) {
                customer.byKey().put(key, customerKey);
            }
            keyedForCustomers.computeIfAbsent(key, k -> new ArrayList<>()).add(customerKey);
        }
        Customer none = new Customer(minus(groups.stream().reduce(SpendReports::sum).orElseThrow(), customers));
        for (DailySpend key : keys) {
            DailySpend left = minus(key, keyedForCustomers.getOrDefault(key.name(), List.of()));
            if (left.spend().signum() > 0 || DayRollups.tokens(left) > 0) {
                none.byKey().put(key.name(), left);
            }
        }
        if (none.total().spend().signum() > 0 || DayRollups.tokens(none.total()) > 0) {
            shown.put(NO_CUSTOMER, none);
        }
        return shown;
    }

    private static DailySpend minus(DailySpend whole, List<DailySpend> parts) {
        DailySpend left = whole;
        for (DailySpend part : parts) {
            left = new DailySpend(left.day(), left.dimension(), left.name(), left.requests() - part.requests(),
                    left.successes() - part.successes(), left.failures() - part.failures(),
                    left.promptTokens() - part.promptTokens(), left.completionTokens() - part.completionTokens(),
                    left.cachedTokens() - part.cachedTokens(), left.spend().subtract(part.spend()));
        }
        return left;
    }

    private static ObjectNode entry(String key, BigDecimal spend, long tokens) {
        ObjectNode entry = Json.MAPPER.createObjectNode();
        entry.putNull("model");
        entry.put("api_key", key);
        entry.put("spend", DayRollups.dollars(spend));
        entry.put("total_tokens", tokens);
        return entry;
    }
}
