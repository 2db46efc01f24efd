package dev.sluice.metrics;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryUsage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * The process's own gauges, under the names Prometheus's JVM exporters use, so existing
 * dashboards and alerts read them: memory by area, the resident set, live threads and the
 * collectors' work. Capacity planning and leak alerts watch these; a replica whose heap after
 * collection keeps climbing under a steady load is holding on to what it served.
 */
public final class ProcessGauges {
    /** Where Linux gives the resident set; absent elsewhere, and the gauge with it. */
    private static final Path PROC_STATUS = Path.of("/proc/self/status");

    private ProcessGauges() {}

    public static void register(GatewayMetrics metrics) {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        metrics.gauge("jvm_memory_used_bytes", "Memory in use, by area (heap, nonheap).",
                () -> byArea(memory, MemoryUsage::getUsed), "area");
        metrics.gauge("jvm_memory_committed_bytes", "Memory the JVM holds from the system, by area (heap, nonheap).",
                () -> byArea(memory, MemoryUsage::getCommitted), "area");
        metrics.gauge("jvm_memory_max_bytes", "The most memory the area may grow to (heap; nonheap when bounded).",
                () -> byArea(memory, MemoryUsage::getMax), "area");
        metrics.gauge("jvm_threads_live", "Live threads, platform threads only (virtual threads are not counted).",
                () -> (double) ManagementFactory.getThreadMXBean().getThreadCount());
        List<GarbageCollectorMXBean> collectors = ManagementFactory.getGarbageCollectorMXBeans();
        metrics.counterOf("jvm_gc_collections_total", "Collections each collector has run.",
                () -> byCollector(collectors, c -> (double) c.getCollectionCount()), "gc");
        metrics.counterOf("jvm_gc_collection_seconds_total", "Time each collector has spent collecting, in seconds.",
                () -> byCollector(collectors, c -> c.getCollectionTime() / 1000.0), "gc");
        if (residentBytes().isPresent()) {
            metrics.gauge("process_resident_memory_bytes", "The process's resident set: what it occupies in RAM.",
                    () -> (double) residentBytes().orElse(0));
        }
    }

    private static Map<List<String>, Double> byArea(MemoryMXBean memory, ToLongFunction<MemoryUsage> value) {
        Map<List<String>, Double> values = new LinkedHashMap<>();
        put(values, "heap", value.applyAsLong(memory.getHeapMemoryUsage()));
        put(values, "nonheap", value.applyAsLong(memory.getNonHeapMemoryUsage()));
        return values;
    }

    /** A negative value is the MXBean's "undefined" (an unbounded area's max): left out. */
    private static void put(Map<List<String>, Double> values, String area, long bytes) {
        if (bytes >= 0) {
            values.put(List.of(area), (double) bytes);
        }
    }

    private static Map<List<String>, Double> byCollector(List<GarbageCollectorMXBean> collectors,
            ToDoubleFunction<GarbageCollectorMXBean> value) {
        Map<List<String>, Double> values = new LinkedHashMap<>();
        for (GarbageCollectorMXBean collector : collectors) {
            double v = value.applyAsDouble(collector);
            if (v >= 0) {
                values.put(List.of(collector.getName()), v);
            }
        }
        return values;
    }

    /** The {@code VmRSS} line of {@code /proc/self/status}, in bytes; empty where there is none. */
    static OptionalLong residentBytes() {
        try {
            for (String line : Files.readAllLines(PROC_STATUS)) {
                if (line.startsWith("VmRSS:")) {
                    String kilobytes = line.substring("VmRSS:".length()).replace("kB", "").trim();
                    return OptionalLong.of(Long.parseLong(kilobytes) * 1024);
                }
            }
        } catch (IOException | RuntimeException e) {
            // Not Linux, or no procfs mounted: the gauge is not offered.
        }
        return OptionalLong.empty();
    }
}
