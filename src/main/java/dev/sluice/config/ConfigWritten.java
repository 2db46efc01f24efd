package dev.sluice.config;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A config value as the router-settings vocabulary reads it: {@code os.environ/} references
 * resolved, numbers accepted as text (a variable is always text), and every problem
 * collected, so one start-up attempt reports them all.
 */
record ConfigWritten(ConfigNode node, EnvResolver env, Problems problems) implements Written {

    @Override
    public String path() {
        return node.path();
    }

    @Override
    public boolean isAbsent() {
        return node.isAbsent();
    }

    @Override
    public boolean isMap() {
        return node.isMap();
    }

    @Override
    public boolean isList() {
        return node.isList();
    }

    @Override
    public List<Written> items() {
        return node.items().stream().<Written>map(item -> new ConfigWritten(item, env, problems)).toList();
    }

    @Override
    public List<Map.Entry<String, Written>> entries() {
        return node.entries().stream()
                .<Map.Entry<String, Written>>map(entry -> Map.entry(entry.getKey(), new ConfigWritten(entry.getValue(), env, problems)))
                .toList();
    }

    @Override
    public String shown() {
        return ShownValue.of(node.value(), false);
    }

    @Override
    public Optional<Scalar> scalar() {
        if (node.isAbsent()) {
            return Optional.empty();
        }
        return env.resolve(node).map(resolved -> new Scalar(resolved.value(), resolved.shown(false), resolved.shownText()));
    }

    @Override
    public boolean numbersAsText() {
        return true;
    }

    @Override
    public void problem(String shown, String expected) {
        problems.add(node, shown, expected);
    }
}
