package dev.sluice.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.boot.cli.Main;
import dev.sluice.config.ConfigException;
import dev.sluice.config.ConfigLoader;
import dev.sluice.config.FallbackVariables;
import dev.sluice.config.GeneralSettings;
import dev.sluice.config.SluiceConfig;
import dev.sluice.ops.logging.LogFormat;
import dev.sluice.vendors.Providers;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * The deployment files of the repository (Dockerfile, docker-compose.yml, deploy/) and what
 * the gateway itself says they must agree with: the jar Maven builds, the variables a config
 * reads, the store's folder. Tests run from the repository's root, as Maven runs them.
 */
final class DeployFiles {
    static final Path EXAMPLE_CONFIG = Path.of("deploy", "config.yaml");
    private static final Pattern ENV_REFERENCE = Pattern.compile("os\\.environ/([A-Za-z_][A-Za-z0-9_]*)");

    private DeployFiles() {}

    static String text(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Dockerfile dockerfile() {
        return Dockerfile.parse(text(Path.of("Dockerfile")));
    }

    /** Every YAML document of the file, as maps. */
    static List<Map<String, Object>> documents(Path file) {
        List<Map<String, Object>> documents = new ArrayList<>();
        for (Object document : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(text(file))) {
            if (document != null) {
                documents.add(map(document));
            }
        }
        return documents;
    }

    static Map<String, Object> yaml(Path file) {
        List<Map<String, Object>> documents = documents(file);
        assertThat(documents).as("YAML documents in %s", file).hasSize(1);
        return documents.getFirst();
    }

    /** The value at a dotted path of nested maps, or null when a step is missing. */
    static Object at(Map<String, Object> root, String dotted) {
        Object current = root;
        for (String step : dotted.split("\\.")) {
            if (!(current instanceof Map<?, ?> map)) {
                return null;
            }
            current = map.get(step);
        }
        return current;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object value) {
        assertThat(value).as("a YAML map").isInstanceOf(Map.class);
        return (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked")
    static List<Object> list(Object value) {
        assertThat(value).as("a YAML list").isInstanceOf(List.class);
        return (List<Object>) value;
    }

    /** The jar {@code ./mvnw package} leaves, relative to the project: {@code target/<finalName>.jar} of pom.xml. */
    static String builtJar() throws Exception {
        var pom = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(Path.of("pom.xml").toFile());
        var build = pom.getDocumentElement().getElementsByTagName("build").item(0);
        String finalName = null;
        for (var child = build.getFirstChild(); child != null; child = child.getNextSibling()) {
            if (child.getNodeName().equals("finalName")) {
                finalName = child.getTextContent().strip();
            }
        }
        assertThat(finalName).as("pom.xml build.finalName").isNotBlank();
        return "target/" + finalName + ".jar";
    }

    /**
     * The variables a gateway started on {@code configText} reads: those the config names with
     * {@code os.environ/}, LiteLLM's fallbacks the config reads on its own, the log format's,
     * and those of the command line's address.
     */
    static Set<String> variablesRead(String configText) {
        Set<String> names = new TreeSet<>(FallbackVariables.ALL);
        names.add(LogFormat.VARIABLE);
        names.addAll(Main.ADDRESS_VARIABLES);
        Matcher reference = ENV_REFERENCE.matcher(configText);
        while (reference.find()) {
            names.add(reference.group(1));
        }
        return names;
    }

    /**
     * The config as {@code java -jar sluice.jar --strict --config} would take it in this
     * environment; a problem fails the test, naming it.
     */
    static SluiceConfig load(String configText, Map<String, String> env) {
        SluiceConfig config;
        try {
            config = ConfigLoader.parse(configText, env, Providers.knownPrefixes(), true);
        } catch (ConfigException e) {
            throw new AssertionError("the config cannot be used: " + e.problems());
        }
        assertThat(Providers.builtIn(env, Clock.systemUTC()).misconfigurations(config.deployments(), config::fileIndex)).isEmpty();
        assertThat(config.ignoredKeys()).as("keys the gateway does not act on").isEmpty();
        return config;
    }

    /** The folder the gateway writes its embedded store and spend journal to, run from {@code workdir}. */
    static String storeFolder(String workdir, SluiceConfig config) {
        Path store = Path.of(workdir).resolve(config.general().store().storePath()).getParent();
        return store.toString();
    }

    /** The default store folder, for files that say nothing of the config. */
    static String defaultStoreFolder(String workdir) {
        return Path.of(workdir).resolve(GeneralSettings.DEFAULT_STORE_PATH).getParent().toString();
    }

    /** A JSON-array form instruction ({@code ["java", "-jar", ...]}) as its words. */
    static List<String> execForm(String arguments) {
        try {
            return List.of(new ObjectMapper().readValue(arguments, String[].class));
        } catch (IOException e) {
            throw new AssertionError("not a JSON array: " + arguments, e);
        }
    }

    /** The value after {@code flag} in a command line. */
    static String flagValue(List<String> words, String flag) {
        int at = words.indexOf(flag);
        assertThat(at).as("%s in %s", flag, words).isNotNegative().isLessThan(words.size() - 1);
        return words.get(at + 1);
    }
}
