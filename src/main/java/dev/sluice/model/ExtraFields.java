package dev.sluice.model;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The fields of a caller's body that no internal term covers ({@code seed},
 * {@code response_format}, {@code metadata}, ...), kept with the dialect they are written in so
 * nothing the caller sent is lost. An encoder of the same dialect writes them back as they
 * came; an encoder of another dialect leaves them out, since its vendor would not know them.
 *
 * @param dialect the format the fields are written in
 * @param fields  field name to value, in the caller's order; the values are held as given, not to be changed
 */
public record ExtraFields(Dialect dialect, Map<String, JsonNode> fields) {
    public ExtraFields {
        Checks.present(dialect, "dialect");
        Checks.present(fields, "fields");
        fields.forEach((name, value) -> Checks.present(value, "fields." + name));
        fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
    }

    public static ExtraFields none(Dialect dialect) {
        return new ExtraFields(dialect, Map.of());
    }

    /** The fields when they are written in {@code target}, else none. */
    public Map<String, JsonNode> in(Dialect target) {
        return dialect == target ? fields : Map.of();
    }
}
