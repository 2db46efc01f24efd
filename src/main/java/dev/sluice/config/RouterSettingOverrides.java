package dev.sluice.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Router settings changed while the gateway runs, over the config file's: the values an
 * operator stored through the router settings API. Each value is read by the same rules as
 * the same key in {@code router_settings} ({@link RouterVocabulary}), so a
 * value the file would refuse is refused here too, with the same words.
 *
 * <p>Only {@link #NAMES} may change at run time; {@link #applyTo} gives the settings the file
 * would give had it written these values in {@code router_settings}, each such key's source
 * being {@link #FROM_DATABASE}. A {@code max_client_timeout} the file leaves unset follows the
 * effective {@code timeout}, as it does at start-up.
 *
 * <p>Values are kept in a canonical JSON form ({@link #values()}): what is stored, shown and
 * read back, e.g. {@code "3"} is kept as {@code 3} and a timeout as a number of seconds.
 */
public final class RouterSettingOverrides {
    /** The source of a setting whose value comes from the database. */
    public static final String FROM_DATABASE = "database";

    /** The names of the settings that may change at run time ({@link RouterSetting#UPDATABLE}). */
    public static final List<String> NAMES = RouterSetting.UPDATABLE.stream().map(RouterSetting::name).toList();

    public static final RouterSettingOverrides NONE = new RouterSettingOverrides(List.of(), Map.of());

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    /** Typed values, in {@link #NAMES} order. */
    private final List<Value<?>> typed;
    private final Map<String, JsonNode> values;

    private RouterSettingOverrides(List<Value<?>> typed, Map<String, JsonNode> values) {
        this.typed = typed;
        this.values = values;
    }

    /**
     * One change asked for: the settings given a value, and those given {@code null}, which
     * drops the stored value so the file's (or the default) applies again.
     *
     * @param set   canonical values by name
     * @param reset names whose stored value is dropped
     */
    public record Change(Map<String, JsonNode> set, Set<String> reset) {
        public Change {
            set = Collections.unmodifiableMap(new LinkedHashMap<>(set));
            reset = Collections.unmodifiableSet(new LinkedHashSet<>(reset));
        }

        public boolean isEmpty() {
            return set.isEmpty() && reset.isEmpty();
        }
    }

    /** Why one setting of a change was refused: the setting's name and every problem with its value. */
    public record Refusal(String name, Kind kind, List<String> problems) {
        public enum Kind {
            /** Not a router setting at all. */
            UNKNOWN,
            /** A router setting that only the config file sets (read once at start-up). */
            NOT_UPDATABLE,
            /** A value the config parser would refuse too. */
            INVALID
        }
    }

    /** A change that cannot be made; nothing of it may be applied. */
    public static final class InvalidChange extends Exception {
        private final List<Refusal> refusals;

        InvalidChange(List<Refusal> refusals) {
            super(describe(refusals));
            this.refusals = List.copyOf(refusals);
        }

        public List<Refusal> refusals() {
            return refusals;
        }

        private static String describe(List<Refusal> refusals) {
            List<String> parts = new ArrayList<>();
            for (Refusal refusal : refusals) {
                switch (refusal.kind()) {
                    case UNKNOWN -> parts.add(refusal.name() + ": not a router setting (settings that change at run time: "
                            + String.join(", ", NAMES) + ")");
                    case NOT_UPDATABLE -> parts.add(refusal.name() + ": set in the config file only, read at start-up "
                            + "(settings that change at run time: " + String.join(", ", NAMES) + ")");
                    case INVALID -> parts.addAll(refusal.problems());
                }
            }
            return String.join("; ", parts);
        }
    }

    /**
     * Reads a change from an API body: a JSON object from setting name to value, {@code null}
     * to drop the stored value. Every field is checked before anything is returned.
     *
     * @param known  the names of every router setting (those only the file sets included), to
     *               tell an unknown name from one that cannot change at run time
     * @param groups the model groups served now: every fallback target must be one of them
     * @throws InvalidChange naming each refused field and why
     */
    public static Change readChange(ObjectNode body, Set<String> known, Set<String> groups) throws InvalidChange {
        Map<String, JsonNode> set = new LinkedHashMap<>();
        Set<String> reset = new LinkedHashSet<>();
        List<Refusal> refusals = new ArrayList<>();
        for (Map.Entry<String, JsonNode> field : body.properties()) {
            String name = field.getKey();
            Optional<RouterSetting<?>> setting = RouterSetting.named(name);
            if (setting.isEmpty()) {
                refusals.add(new Refusal(name, known.contains(name) ? Refusal.Kind.NOT_UPDATABLE : Refusal.Kind.UNKNOWN, List.of()));
                continue;
            }
            if (field.getValue().isNull()) {
                reset.add(name);
                continue;
            }
            List<String> problems = new ArrayList<>();
            Optional<? extends Value<?>> value = read(setting.get(), field.getValue(), groups, problems);
            if (!problems.isEmpty()) {
                refusals.add(new Refusal(name, Refusal.Kind.INVALID, problems));
            } else {
                set.put(name, value.orElseThrow().json());
            }
        }
        if (!refusals.isEmpty()) {
            throw new InvalidChange(refusals);
        }
        return new Change(set, reset);
    }

    /**
     * Reads stored values (canonical JSON by name). A value that no longer reads (written by
     * another version, or a name this one does not change at run time) is left out and
     * named in {@link Read#skipped()}; the rest apply. Fallback targets are not checked
     * against the groups served: a group since removed is skipped when a call falls back.
     */
    public static Read readStored(Map<String, JsonNode> stored) {
        List<Value<?>> typed = new ArrayList<>();
        Map<String, JsonNode> values = new LinkedHashMap<>();
        List<String> skipped = new ArrayList<>();
        for (RouterSetting<?> setting : RouterSetting.UPDATABLE) {
            JsonNode value = stored.get(setting.name());
            if (value == null || value.isNull()) {
                continue;
            }
            List<String> problems = new ArrayList<>();
            Optional<? extends Value<?>> read = read(setting, value, Set.of(), problems);
            if (problems.isEmpty()) {
                typed.add(read.orElseThrow());
                values.put(setting.name(), read.orElseThrow().json());
            } else {
                skipped.add(String.join("; ", problems));
            }
        }
        stored.keySet().stream().filter(name -> !NAMES.contains(name))
                .forEach(name -> skipped.add(name + ": not a setting that changes at run time"));
        return new Read(new RouterSettingOverrides(List.copyOf(typed), Collections.unmodifiableMap(values)),
                List.copyOf(skipped));
    }

    /** Stored values as read: the overrides that apply, and a problem for each value left out. */
    public record Read(RouterSettingOverrides overrides, List<String> skipped) {}

    /** The canonical value of each overridden setting, in {@link #NAMES} order. */
    public Map<String, JsonNode> values() {
        return values;
    }

    public boolean isEmpty() {
        return values.isEmpty();
    }

    /** The settings {@code file} gives with these values over it. */
    public RouterSettings applyTo(RouterSettings file) {
        if (typed.isEmpty()) {
            return file;
        }
        RouterSettings applied = file;
        for (Value<?> value : typed) {
            applied = value.applyTo(applied);
        }
        Map<String, String> sources = new LinkedHashMap<>(file.sources());
        typed.forEach(value -> sources.put(value.setting().name(), FROM_DATABASE));
        return applied.withSources(Collections.unmodifiableMap(sources));
    }

    /** These overrides with {@code change} made: its values set, its resets dropped. */
    public RouterSettingOverrides with(Change change) {
        Map<String, JsonNode> merged = new LinkedHashMap<>(values);
        merged.putAll(change.set());
        change.reset().forEach(merged::remove);
        return readStored(merged).overrides();
    }

    /** One setting's value, typed as its key reads it. */
    private record Value<T>(RouterSetting<T> setting, T value) {
        RouterSettings applyTo(RouterSettings settings) {
            return setting.with(settings, value);
        }

        JsonNode json() {
            return setting.json(value);
        }
    }

    /** One value by the rules of its {@code router_settings} key; problems are added to {@code problems}. */
    private static <T> Optional<Value<T>> read(RouterSetting<T> setting, JsonNode value, Set<String> groups, List<String> problems) {
        Problems found = new Problems();
        ConfigNode node = ConfigNode.root(JSON.objectNode().set(setting.name(), value)).get(setting.name());
        Optional<T> read = Optional.empty();
        if (referencesEnvironment(value)) {
            found.add(node, ShownValue.of(value, false), "a value written out; os.environ/ references are read from the config file only");
        } else {
            FieldReader reader = new FieldReader(new EnvResolver(Map.of(), found), found);
            read = setting.read(new RouterVocabulary(groups), reader.written(node));
        }
        try {
            found.throwIfAny();
        } catch (ConfigException e) {
            problems.addAll(e.problems());
            return Optional.empty();
        }
        return Optional.of(new Value<>(setting, read.orElseThrow()));
    }

    private static boolean referencesEnvironment(JsonNode value) {
        if (value.isTextual()) {
            return value.textValue().startsWith(EnvResolver.PREFIX);
        }
        for (JsonNode child : value) {
            if (referencesEnvironment(child)) {
                return true;
            }
        }
        return false;
    }
}
