package dev.sluice.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** The JSON forms router setting values are stored and shown in: durations as seconds, fallbacks in LiteLLM's form. */
final class SettingJson {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private SettingJson() {}

    /** A duration as a number of seconds: {@code 30}, {@code 0.5}. */
    static JsonNode seconds(Duration duration) {
        BigDecimal seconds = BigDecimal.valueOf(duration.getSeconds()).add(BigDecimal.valueOf(duration.getNano(), 9))
                .stripTrailingZeros();
        if (seconds.scale() <= 0 && seconds.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) <= 0) {
            return JSON.numberNode(seconds.longValueExact());
        }
        return DecimalNode.valueOf(seconds);
    }

    static ArrayNode strings(List<?> list) {
        ArrayNode array = JSON.arrayNode();
        list.forEach(item -> array.add(String.valueOf(item)));
        return array;
    }

    /** LiteLLM's form of a fallback map: a list of single-key maps. */
    static ArrayNode fallbackList(Map<String, List<String>> fallbacks) {
        ArrayNode array = JSON.arrayNode();
        fallbacks.forEach((group, targets) -> array.addObject().set(group, strings(targets)));
        return array;
    }
}
