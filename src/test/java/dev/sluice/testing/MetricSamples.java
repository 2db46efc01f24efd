package dev.sluice.testing;

import java.util.HashMap;
import java.util.Map;

/** Reads what {@code GET /metrics} answers, Prometheus's text format, as a test checks it. */
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
            samples.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
        }
        return samples;
    }
}
