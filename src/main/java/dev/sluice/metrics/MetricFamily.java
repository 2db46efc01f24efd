package dev.sluice.metrics;

import java.util.List;
import java.util.Objects;

/**
 * One named metric and its samples, written in Prometheus's text exposition format (0.0.4):
 * {@code # HELP}, {@code # TYPE}, then one line per sample.
 */
abstract sealed class MetricFamily permits Counters, Gauges, Histograms {
    final String name;
    final String help;
    final List<String> labelNames;

    MetricFamily(String name, String help, List<String> labelNames) {
        this.name = Objects.requireNonNull(name, "name");
        this.help = Objects.requireNonNull(help, "help");
        this.labelNames = List.copyOf(labelNames);
        if (!name.matches("[a-zA-Z_:][a-zA-Z0-9_:]*")) {
            throw new IllegalArgumentException("metric name: " + name);
        }
    }

    abstract String type();

    /** Appends this family's samples. */
    abstract void samples(StringBuilder out);

    final void write(StringBuilder out) {
        out.append("# HELP ").append(name).append(' ').append(help.replace("\\", "\\\\").replace("\n", "\\n")).append('\n');
        out.append("# TYPE ").append(name).append(' ').append(type()).append('\n');
        samples(out);
    }

    /** {@code name{a="x",b="y"} value}, with {@code extra} (a label name and value, or null) last. */
    static void sample(StringBuilder out, String name, List<String> labelNames, List<String> labelValues, String extraName,
            String extraValue, double value) {
        out.append(name);
        if (!labelNames.isEmpty() || extraName != null) {
            out.append('{');
            for (int i = 0; i < labelNames.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                label(out, labelNames.get(i), labelValues.get(i));
            }
            if (extraName != null) {
                if (!labelNames.isEmpty()) {
                    out.append(',');
                }
                label(out, extraName, extraValue);
            }
            out.append('}');
        }
        out.append(' ').append(number(value)).append('\n');
    }

    private static void label(StringBuilder out, String name, String value) {
        out.append(name).append("=\"");
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\\' -> out.append("\\\\");
                case '"' -> out.append("\\\"");
                case '\n' -> out.append("\\n");
                default -> out.append(c);
            }
        }
        out.append('"');
    }

    static String number(double value) {
        if (value == Math.rint(value) && !Double.isInfinite(value) && Math.abs(value) < 1e15) {
            return Long.toString((long) value);
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "+Inf" : "-Inf";
        }
        return java.math.BigDecimal.valueOf(value).stripTrailingZeros().toPlainString(); // 0.0005, never 5.0E-4
    }

    /** The label values of a sample, checked against the family's label names. */
    List<String> values(String... labelValues) {
        if (labelValues.length != labelNames.size()) {
            throw new IllegalArgumentException(name + " takes labels " + labelNames + ", got " + labelValues.length + " values");
        }
        for (String value : labelValues) {
            Objects.requireNonNull(value, "label value");
        }
        return List.of(labelValues);
    }
}
