package dev.sluice.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.config.Deployment;
import dev.sluice.config.LitellmParams;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The model catalog Sluice runs with: each deployment's own config first, then a table of
 * common models bundled with Sluice ({@code dev/sluice/catalog/models.json}, which names
 * its sources and the date its figures were taken).
 *
 * <ul>
 *   <li>Context window: {@code model_info.max_input_tokens}, else the table's; the output
 *       limit, the table's.
 *   <li>Cache rates (prompt tokens read from or written to a vendor's prompt cache): the
 *       table's with the table's input price, else the input price.
 *   <li>Prices: each of {@code input_cost_per_token} and {@code output_cost_per_token} as
 *       written in {@code litellm_params}, else in {@code model_info}, else the table's. A
 *       deployment that writes one price for a model the table does not know has the other at
 *       0 (an embedding model's output, say); one that writes neither, for such a model, has
 *       no prices.
 * </ul>
 *
 * A deployment is matched to the table by its {@code model_info.base_model} when that names
 * a model of the table, else by the model after its provider prefix ({@code openai/gpt-4o}
 * is {@code gpt-4o}), as {@link ModelNames} describes; an Azure deployment without a
 * {@code base_model} is matched only when its deployment name is a model name. The table is
 * read once per process; each model name's match is worked out once and kept. Thread-safe.
 */
public final class BundledModelCatalog implements ModelCatalog {
    private static final String RESOURCE = "models.json";

    private final Table table;
    private final Map<String, Optional<Entry>> matches = new ConcurrentHashMap<>();

    public BundledModelCatalog() {
        this(Bundled.TABLE);
    }

    BundledModelCatalog(Table table) {
        this.table = table;
    }

    /** The date the bundled figures were taken from the providers' pages, e.g. {@code 2025-08-01}. */
    public static String asOf() {
        return Bundled.TABLE.asOf();
    }

    @Override
    public OptionalInt maxInputTokens(Deployment deployment) {
        OptionalInt written = deployment.info().maxInputTokens();
        if (written.isPresent()) {
            return written;
        }
        return entry(deployment)
                .map(entry -> OptionalInt.of(entry.maxInputTokens()))
                .orElse(OptionalInt.empty());
    }

    @Override
    public Optional<Prices> prices(Deployment deployment) {
        LitellmParams params = deployment.params();
        Optional<Entry> entry = entry(deployment);
        OptionalDouble input = firstOf(params.prices().inputCostPerToken(), deployment.info().inputCostPerToken());
        OptionalDouble output = firstOf(params.prices().outputCostPerToken(), deployment.info().outputCostPerToken());
        if (entry.isEmpty() && input.isEmpty() && output.isEmpty()) {
            return Optional.empty();
        }
        double tableOutput = entry.map(Entry::outputPerToken).orElse(0.0);
        if (input.isPresent() || entry.isEmpty()) {
            // The table's cache rates go with its input rate: a deployment priced apart pays its own rate for cached tokens too.
            return Optional.of(new Prices(input.orElse(0.0), output.orElse(tableOutput)));
        }
        Entry e = entry.get();
        return Optional.of(new Prices(e.inputPerToken(), output.orElse(tableOutput), e.cacheReadPerToken(), e.cacheWritePerToken()));
    }

    @Override
    public OptionalInt maxOutputTokens(Deployment deployment) {
        return entry(deployment).map(Entry::maxOutputTokens).orElse(OptionalInt.empty());
    }

    /** The table entry of a deployment: its {@code base_model}'s when the table knows that, else its own model's. */
    Optional<Entry> entry(Deployment deployment) {
        Optional<Entry> base = deployment.info().baseModel().flatMap(this::entry);
        return base.isPresent() ? base : entry(deployment.params().providerModel());
    }

    private static OptionalDouble firstOf(OptionalDouble first, OptionalDouble second) {
        return first.isPresent() ? first : second;
    }

    /** The table entry a provider model name matches: its own, else its family's. */
    Optional<Entry> entry(String providerModel) {
        return matches.computeIfAbsent(providerModel, name -> {
            Optional<String> candidate = Optional.of(ModelNames.normalise(name));
            while (candidate.isPresent()) {
                Entry found = table.models().get(candidate.get());
                if (found != null) {
                    return Optional.of(found);
                }
                candidate = ModelNames.family(candidate.get());
            }
            return Optional.empty();
        });
    }

    /**
     * One model of the table.
     *
     * @param name   as written in the table
     * @param source the provider whose pages the figures come from
     */
    record Entry(String name, String source, int maxInputTokens, OptionalInt maxOutputTokens, double inputPerToken,
            double outputPerToken, double cacheReadPerToken, double cacheWritePerToken) {}

    /** @param models by {@link ModelNames#normalise normalised} name */
    record Table(String asOf, Map<String, Entry> models) {

        /** Reads the table; a malformed one is a fault of the build, so it fails loudly. */
        static Table read(InputStream json) {
            try (json) {
                JsonNode root = Json.MAPPER.readTree(json);
                String asOf = root.path("as_of").asText("");
                if (asOf.isEmpty()) {
                    throw new IllegalStateException(RESOURCE + ": no as_of date");
                }
                JsonNode sources = root.path("sources");
                Map<String, Entry> models = new HashMap<>();
                for (Map.Entry<String, JsonNode> model : root.path("models").properties()) {
                    Entry entry = entry(model.getKey(), model.getValue(), sources);
                    if (models.put(ModelNames.normalise(entry.name()), entry) != null) {
                        throw new IllegalStateException(RESOURCE + ": two entries match the name " + entry.name());
                    }
                }
                if (models.isEmpty()) {
                    throw new IllegalStateException(RESOURCE + ": no models");
                }
                return new Table(asOf, Map.copyOf(models));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + RESOURCE, e);
            }
        }

        private static Entry entry(String name, JsonNode model, JsonNode sources) {
            String source = model.path("source").asText("");
            if (!sources.has(source)) {
                throw new IllegalStateException(RESOURCE + ": " + name + " names no listed source");
            }
            JsonNode window = model.path("max_input_tokens");
            if (!window.canConvertToInt() || window.intValue() <= 0) {
                throw new IllegalStateException(RESOURCE + ": " + name + " has no max_input_tokens > 0");
            }
            JsonNode output = model.path("max_output_tokens");
            if (!output.isMissingNode() && (!output.canConvertToInt() || output.intValue() <= 0)) {
                throw new IllegalStateException(RESOURCE + ": " + name + " has a max_output_tokens that is not > 0");
            }
            double input = perToken(name, model.path("input_per_million"));
            return new Entry(name, source, window.intValue(), output.isMissingNode() ? OptionalInt.empty() : OptionalInt.of(output.intValue()),
                    input, perToken(name, model.path("output_per_million")),
                    model.has("cache_read_per_million") ? perToken(name, model.path("cache_read_per_million")) : input,
                    model.has("cache_write_per_million") ? perToken(name, model.path("cache_write_per_million")) : input);
        }

        private static double perToken(String name, JsonNode perMillion) {
            if (!perMillion.isNumber() || perMillion.doubleValue() < 0) {
                throw new IllegalStateException(RESOURCE + ": " + name + " has a price that is not a number >= 0");
            }
            return perMillion.decimalValue().movePointLeft(6).doubleValue();
        }
    }

    /** The bundled table, read when first needed. */
    private static final class Bundled {
        static final Table TABLE = Table.read(open());

        private static InputStream open() {
            InputStream json = BundledModelCatalog.class.getResourceAsStream(RESOURCE);
            if (json == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the class path");
            }
            return json;
        }
    }
}
