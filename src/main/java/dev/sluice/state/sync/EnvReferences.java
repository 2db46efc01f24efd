package dev.sluice.state.sync;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code os.environ/NAME} references in a deployment given at run time that name a
 * variable the operator did not list in {@code general_settings.admin_allowed_env_vars}.
 *
 * <p>Only the config file may read the gateway's environment freely. A reference in an entry
 * of the model API would hand the caller the variable's value: as {@code api_key}, sent to an
 * {@code api_base} of its choosing; as {@code model_name} or an id, echoed in answers, model
 * lists, errors and metric labels. Every string in the entry counts, whichever field holds it,
 * even a field Sluice does not read.
 */
final class EnvReferences {
    static final String PREFIX = "os.environ/";

    /** A reference that may not be resolved, at {@code field} (e.g. {@code litellm_params.api_key}). */
    record Refused(String field, String written) {}

    private EnvReferences() {}

    static List<Refused> refused(JsonNode entry, Set<String> allowed) {
        List<Refused> refused = new ArrayList<>();
        walk(entry, "", allowed, refused);
        return refused;
    }

    private static void walk(JsonNode node, String path, Set<String> allowed, List<Refused> refused) {
        if (node.isTextual()) {
            String text = node.textValue();
            if (text.startsWith(PREFIX) && !allowed.contains(text.substring(PREFIX.length()))) {
                refused.add(new Refused(path, text));
            }
        } else if (node.isObject()) {
            for (Map.Entry<String, JsonNode> field : node.properties()) {
                walk(field.getValue(), path.isEmpty() ? field.getKey() : path + "." + field.getKey(), allowed, refused);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                walk(node.get(i), path + "[" + i + "]", allowed, refused);
            }
        }
    }
}
