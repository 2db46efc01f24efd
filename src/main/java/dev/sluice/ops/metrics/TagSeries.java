package dev.sluice.ops.metrics;

import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finished calls by tag and model group: {@code sluice_tag_requests_total}. Tags are whatever
 * callers send, so the tag label's values are bounded: the first {@link #DEFAULT_MAX_TAGS}
 * distinct tags seen get a series of their own for the life of the process, and every tag
 * after them is counted under {@link #OTHER}, with one warning the first time. Model groups
 * come from the config, so they need no bound.
 */
final class TagSeries {
    /** Distinct tag values the family keeps before counting the rest under {@link #OTHER}. */
    static final int DEFAULT_MAX_TAGS = 100;
    /** The tag label of every tag past the bound. */
    static final String OTHER = "__other__";

    private static final Logger log = LoggerFactory.getLogger(TagSeries.class);

    private final int maxTags;
    private final Set<String> kept = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean overflowTold = new AtomicBoolean();
    private final SeriesCache<CounterDataPoint> series;

    TagSeries(PrometheusRegistry registry, int maxTags) {
        this.maxTags = maxTags;
        Counter calls = Families.counter(registry, "sluice_tag_requests_total",
                "Finished model calls by tag (each of a call's tags counts it once) and model group; past the first "
                        + maxTags + " distinct tags, tags are counted as " + OTHER + ".", "model_group", "tag");
        this.series = new SeriesCache<>(calls::labelValues);
    }

    /** One finished call of {@code group} carrying {@code tags} (each once). */
    void count(String group, List<String> tags) {
        for (String tag : tags) {
            series.get(group, label(tag)).inc();
        }
    }

    private String label(String tag) {
        if (kept.contains(tag)) {
            return tag;
        }
        synchronized (kept) {
            if (kept.contains(tag) || kept.size() < maxTags && kept.add(tag)) {
                return tag;
            }
        }
        if (overflowTold.compareAndSet(false, true)) {
            log.warn("metrics.tag_labels_full max={} counted_as={} reason=more distinct tags than sluice_tag_requests_total keeps; "
                    + "calls carrying a further tag count under tag {} there (spend rows keep every tag)", maxTags, OTHER, OTHER);
        }
        return OTHER;
    }
}
