package dev.sluice.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Samples in a stable order (by label values), so two scrapes list them alike. */
final class Sorted {
    private Sorted() {}

    static <V> List<Map.Entry<List<String>, V>> entries(Map<List<String>, V> samples) {
        List<Map.Entry<List<String>, V>> sorted = new ArrayList<>(samples.entrySet());
        sorted.sort((a, b) -> compare(a.getKey(), b.getKey()));
        return sorted;
    }

    private static int compare(List<String> a, List<String> b) {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            int c = a.get(i).compareTo(b.get(i));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(a.size(), b.size());
    }
}
