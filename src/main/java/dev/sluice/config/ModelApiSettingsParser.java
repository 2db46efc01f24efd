package dev.sluice.config;

import dev.sluice.egress.Cidr;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Pattern;

/** Reads the {@code general_settings} keys of {@link ModelApiSettings}. */
record ModelApiSettingsParser(FieldReader read) {
    private static final Pattern VARIABLE = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final String NETWORK = "a network in CIDR form, such as 169.254.0.0/16 or fd00::/8";

    ModelApiSettings parse(Section general) {
        return new ModelApiSettings(
                new LinkedHashSet<>(list(general.take("admin_allowed_env_vars"), "a variable name such as OPENAI_API_KEY",
                        this::variable)),
                list(general.take("admin_api_base_denied_networks"), NETWORK, this::network),
                list(general.take("admin_api_base_allowed_networks"), NETWORK, this::network));
    }

    /** A list whose items each pass {@code item}, which records a problem and gives null for a bad one. */
    private <T> List<T> list(ConfigNode node, String itemRule, Function<ConfigNode, T> item) {
        if (node.isAbsent()) {
            return List.of();
        }
        if (!node.isList()) {
            read.problems().add(node, ShownValue.of(node.value(), false), "a list, each item " + itemRule);
            return List.of();
        }
        List<T> items = new ArrayList<>();
        for (ConfigNode each : node.items()) {
            if (each.isAbsent()) {
                read.problems().missing(each, itemRule);
                continue;
            }
            T value = item.apply(each);
            if (value != null) {
                items.add(value);
            }
        }
        return List.copyOf(items);
    }

    private String variable(ConfigNode node) {
        return read.string(node, name -> VARIABLE.matcher(name).matches(), "a variable name such as OPENAI_API_KEY")
                .orElse(null);
    }

    private Cidr network(ConfigNode node) {
        return read.string(node).map(text -> {
            try {
                return Cidr.parse(text);
            } catch (IllegalArgumentException e) {
                read.problems().add(node, ShownValue.text(node.value()), NETWORK + " (" + e.getMessage() + ")");
                return null;
            }
        }).orElse(null);
    }
}
