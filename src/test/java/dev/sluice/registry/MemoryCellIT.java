package dev.sluice.registry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.GatewayProcess;
import dev.sluice.testing.MetricSamples;
import dev.sluice.testing.Ports;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The memory cell of the reliability registry: failing requests must leave nothing behind.
 * Each replica takes 600 requests (sent alternately, 1,200 in all); each carries a 100 KB
 * prompt and fails three ways before it is answered with an error: a 500 from its group's
 * primary, a refused connection on the sibling it fails over to, a 401 in the fallback group. What a replica's heap holds after
 * a full collection (run through {@code jcmd}) may grow by less than 48 MB over its 600; a
 * gateway that kept each request's body, its attempts or its failures would keep at least the
 * 60 MB of prompts. The resident set is measured too, over each replica's second 300, as
 * LiteLLM's cell measures it; its part outside the heap is held to the same bound, for what
 * the heap does not show, such as direct buffers never released.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MemoryCellIT {
    /** Failing requests each replica serves. */
    private static final int REQUESTS = 600;
    private static final long BOUND_BYTES = 48L << 20;
    /** Failing requests sent before the baseline, so what loads once (classes, encodings, pools) is not counted. */
    private static final int WARM_UP = 40;

    private final ReplicaPair pair = new ReplicaPair();
    private final String prompt = "All work and no play makes a dull gateway. ".repeat(100_000 / 43);
    private GatewayProcess a;
    private GatewayProcess b;

    @BeforeAll
    void startReplicas(@TempDir Path folder) {
        pair.mock(MockOptions.defaults("mem-primary", MockMode.FAIL));
        pair.mock(MockOptions.defaults("mem-fallback", MockMode.AUTH));
        pair.start(folder,
                pair.deployment("mem", "mem-primary", "mem-primary", "weight: 1000")
                        + pair.deployment("mem", "mem-refused", "http://127.0.0.1:" + Ports.refusing() + "/v1", "weight: 0")
                        + pair.deployment("mem-fallback", "mem-fallback", "mem-fallback", "api_key: bogus-key"),
                "", """
                  num_retries: 1
                  allowed_fails: 1000000
                  fallbacks:
                    - mem: [mem-fallback]
                """);
        a = pair.a();
        b = pair.b();
    }

    @AfterAll
    void stopReplicas() {
        pair.close();
    }

    @Test
    void sixHundredFailingRequestsGrowEachReplicasHeapByLessThan48Mb() throws Exception {
        fail(WARM_UP);
        Map<String, Memory> before = new TreeMap<>();
        for (GatewayProcess replica : List.of(a, b)) {
            replica.collectGarbage();
            before.put(replica.name(), Memory.of(replica));
        }
        fail(REQUESTS);
        Map<String, Memory> halfway = new TreeMap<>();
        for (GatewayProcess replica : List.of(a, b)) {
            halfway.put(replica.name(), Memory.of(replica));
        }
        fail(REQUESTS);

        assertThat(pair.requests("mem-primary")).as("every request reached the primary").isEqualTo(WARM_UP + 2 * REQUESTS);
        assertThat(pair.requests("mem-fallback")).as("every request fell back").isEqualTo(WARM_UP + 2 * REQUESTS);
        for (GatewayProcess replica : List.of(a, b)) {
            Memory loaded = Memory.of(replica);
            replica.collectGarbage();
            Memory after = Memory.of(replica);
            long heapGrowth = after.heapUsed() - before.get(replica.name()).heapUsed();
            long residentGrowth = loaded.resident() - halfway.get(replica.name()).resident();
            long outsideHeapGrowth = loaded.outsideHeap() - halfway.get(replica.name()).outsideHeap();
            System.out.printf("%s: heap after collection grew %.1f MB over %d failing requests; over the last %d, "
                    + "the resident set grew %.1f MB, %.1f MB of it outside the heap%n", replica, mb(heapGrowth), REQUESTS,
                    REQUESTS / 2, mb(residentGrowth), mb(outsideHeapGrowth));
            assertThat(heapGrowth).as("%s: bytes the heap kept after %d failing requests", replica, REQUESTS).isLessThan(BOUND_BYTES);
            assertThat(outsideHeapGrowth).as("%s: bytes the resident set grew outside the heap over the last %d", replica,
                    REQUESTS / 2).isLessThan(BOUND_BYTES);
        }
    }

    private static double mb(long bytes) {
        return bytes / 1048576.0;
    }

    /**
     * One scrape's memory readings. {@code outsideHeap} is the resident set less the committed
     * heap: what direct buffers, threads, code and metadata hold. The resident set as a whole
     * also moves as the collector sizes the heap to the load (tens of MB either way between two
     * readings on a busy machine), which says nothing of what the process keeps; the heap's
     * share is judged after a full collection instead.
     */
    private record Memory(long heapUsed, long heapCommitted, long resident) {
        static Memory of(GatewayProcess replica) {
            Map<String, Double> samples = MetricSamples.parse(replica.get("/metrics").body());
            return new Memory(bytes(replica, samples, "jvm_memory_used_bytes{area=\"heap\"}"),
                    bytes(replica, samples, "jvm_memory_committed_bytes{area=\"heap\"}"),
                    bytes(replica, samples, "process_resident_memory_bytes"));
        }

        private static long bytes(GatewayProcess replica, Map<String, Double> samples, String sample) {
            Double value = samples.get(sample);
            if (value == null) {
                throw new AssertionError(replica + ": /metrics has no " + sample);
            }
            return value.longValue();
        }

        long outsideHeap() {
            return resident - heapCommitted;
        }
    }

    /**
     * Sends {@code count} failing requests, alternating replicas, eight at a time, and checks
     * each was answered with the group's last error, naming the fallback's.
     */
    private void fail(int count) throws InterruptedException, ExecutionException {
        try (ExecutorService callers = Executors.newFixedThreadPool(8)) {
            List<Future<HttpResponse<String>>> answers = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                GatewayProcess replica = i % 2 == 0 ? a : b;
                answers.add(callers.submit(() -> replica.post("/v1/chat/completions", ReplicaPair.chat("mem", prompt, ""))));
            }
            for (Future<HttpResponse<String>> answer : answers) {
                HttpResponse<String> failed = answer.get();
                assertThat(failed.statusCode()).as(failed.body()).isEqualTo(502);
                assertThat(failed.body()).contains("deployment 'mem-refused' of model group 'mem' could not be reached",
                        "Fallback to 'mem-fallback' failed too (auth 401)");
                assertThat(failed.headers().firstValue("x-litellm-attempted-fallbacks")).hasValue("1");
            }
        }
    }
}
