package dev.sluice.testing;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads what {@code GET /metrics} answers, Prometheus's text format, as a test checks it. A
 * sample's labels are written sorted by name, as client_java writes them:
 * {@code sluice_retries_total{deployment="d",failure_class="server",model_group="g"}}.
 */
public final class MetricSamples {
    private MetricSamples() {}

    /** Each sample line: {@code name{labels}} to its value; comments and blank lines skipped. */
    public static Map<String, Double> parse(String text) {
        Map<String, Double> samples = new HashMap<>();
        for (String line : text.split("\n")) {
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int space = line.lastIndexOf(' ');
            samples.put(line.substring(0, space), number(line.substring(space + 1)));
        }
        return samples;
    }

    /**
     * The upper bounds of one histogram series' buckets, rising, {@code +Inf} last: from the
     * {@code le} label of each {@code NAME_bucket{LABELS,le="..."}} sample.
     *
     * @param labels the series' other labels as written, e.g. {@code route="chat_completions"}
     */
    public static List<Double> bucketBounds(Map<String, Double> samples, String name, String labels) {
        String prefix = name + "_bucket{" + labels + ",le=\"";
        return samples.keySet().stream()
                .filter(key -> key.startsWith(prefix))
                .map(key -> key.substring(prefix.length(), key.length() - "\"}".length()))
                .map(MetricSamples::number)
                .sorted()
                .toList();
    }

    /** A value or bound as the format writes it: a decimal or Java's exponent form, {@code +Inf}, {@code -Inf}, {@code NaN}. */
    private static double number(String text) {
        return switch (text) {
            case "+Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            default -> Double.parseDouble(text);
        };
    }
}
