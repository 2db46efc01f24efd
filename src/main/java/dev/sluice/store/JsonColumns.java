package dev.sluice.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.wire.Json;
import java.math.BigDecimal;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The JSON held in TEXT columns (lists of model groups, per-group limits and budgets,
 * metadata and router settings), written and read here so both engines store the same
 * text. A column that does not parse fails the read, naming the column.
 */
final class JsonColumns {
    private static final TypeReference<List<String>> STRINGS = new TypeReference<>() {};
    private static final TypeReference<LinkedHashMap<String, Long>> LIMITS = new TypeReference<>() {};
    private static final TypeReference<LinkedHashMap<String, String>> NAMES = new TypeReference<>() {};
    /** Budgets are read as decimals, so no limit passes through a double. */
    private static final ObjectReader DECIMALS = Json.MAPPER.reader().with(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    private JsonColumns() {}

    static String write(Object value) {
        try {
            return Json.MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON: " + e.getOriginalMessage(), e);
        }
    }

    static String writeBudgets(Map<String, ModelBudget> budgets) {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        budgets.forEach((group, budget) -> {
            ObjectNode entry = node.putObject(group).put("budget_limit", budget.budgetLimit());
            budget.timePeriod().ifPresent(period -> entry.put("time_period", period));
        });
        return write(node);
    }

    static List<String> strings(String column, String text) throws SQLException {
        try {
            return List.copyOf(Json.MAPPER.readValue(text, STRINGS));
        } catch (JsonProcessingException | NullPointerException e) {
            throw unreadable(column, e);
        }
    }

    /** A JSON object of names to names: a key's {@code aliases}, a team's {@code model_aliases}. */
    static Map<String, String> names(String column, String text) throws SQLException {
        try {
            return Json.MAPPER.readValue(text, NAMES);
        } catch (JsonProcessingException | NullPointerException e) {
            throw unreadable(column, e);
        }
    }

    static Map<String, Long> limits(String column, String text) throws SQLException {
        try {
            return Json.MAPPER.readValue(text, LIMITS);
        } catch (JsonProcessingException | NullPointerException e) {
            throw unreadable(column, e);
        }
    }

    static Map<String, ModelBudget> budgets(String column, String text) throws SQLException {
        try {
            Map<String, ModelBudget> budgets = new LinkedHashMap<>();
            for (Map.Entry<String, JsonNode> entry : DECIMALS.readTree(text).properties()) {
                JsonNode limit = entry.getValue().path("budget_limit");
                JsonNode period = entry.getValue().path("time_period");
                budgets.put(entry.getKey(), new ModelBudget(new BigDecimal(limit.asText()),
                        period.isTextual() ? Optional.of(period.asText()) : Optional.empty()));
            }
            return budgets;
        } catch (JsonProcessingException | RuntimeException e) {
            throw unreadable(column, e);
        }
    }

    static ObjectNode object(String column, String text) throws SQLException {
        try {
            if (Json.MAPPER.readTree(text) instanceof ObjectNode object) {
                return object;
            }
            throw new SQLException(column + ": not a JSON object");
        } catch (JsonProcessingException | NullPointerException e) {
            throw unreadable(column, e);
        }
    }

    private static SQLException unreadable(String column, Exception e) {
        return new SQLException(column + ": unreadable JSON: " + e.getMessage(), e);
    }
}
