package dev.sluice.registry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.mock.MockMode;
import dev.sluice.mock.MockOptions;
import dev.sluice.testing.GatewayProcess;
import dev.sluice.testing.Ports;
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
 * Each replica takes 600 requests (sent alternately, 1,200 in all); each carries a 100 KB prompt and fails three ways
 * before it is answered with an error: a 500 from its group's primary, a refused connection on
 * the sibling it fails over to, a 401 in the fallback group. What a replica's heap holds after
 * a full collection (run through {@code jcmd}) may grow by less than 48 MB over its 600; a
 * gateway that kept each request's body, its attempts or its failures would keep at least the
 * 60 MB of prompts. The resident set is measured too, over each replica's second 300, as
 * LiteLLM's cell measures it, and held to the same bound.
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
        Map<String, Long> heapBefore = new TreeMap<>();
        for (GatewayProcess replica : List.of(a, b)) {
            heapBefore.put(replica.name(), heapAfterCollection(replica));
        }
        fail(REQUESTS);
        Map<String, Long> residentHalfway = new TreeMap<>();
        for (GatewayProcess replica : List.of(a, b)) {
            residentHalfway.put(replica.name(), gauge(replica, "process_resident_memory_bytes"));
        }
        fail(REQUESTS);

        assertThat(pair.requests("mem-primary")).as("every request reached the primary").isEqualTo(WARM_UP + 2 * REQUESTS);
        assertThat(pair.requests("mem-fallback")).as("every request fell back").isEqualTo(WARM_UP + 2 * REQUESTS);
        for (GatewayProcess replica : List.of(a, b)) {
            long heapGrowth = heapAfterCollection(replica) - heapBefore.get(replica.name());
            long residentGrowth = gauge(replica, "process_resident_memory_bytes") - residentHalfway.get(replica.name());
            System.out.printf("%s: heap after collection grew %.1f MB over %d failing requests; resident set %.1f MB over the last %d%n",
                    replica, heapGrowth / 1048576.0, REQUESTS, residentGrowth / 1048576.0, REQUESTS / 2);
            assertThat(heapGrowth).as("%s: bytes the heap kept after %d failing requests", replica, REQUESTS).isLessThan(BOUND_BYTES);
            assertThat(residentGrowth).as("%s: bytes the resident set grew over the last %d", replica, REQUESTS / 2)
                    .isLessThan(BOUND_BYTES);
        }
    }

    /** Sends {@code count} failing requests, alternating replicas, eight at a time, and checks each was answered with the group's last error, naming the fallback's. */
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

    private static long heapAfterCollection(GatewayProcess replica) {
        replica.collectGarbage();
        return gauge(replica, "jvm_memory_used_bytes{area=\"heap\"}");
    }

    private static long gauge(GatewayProcess replica, String sample) {
        for (String line : replica.get("/metrics").body().split("\n")) {
            if (line.startsWith(sample + " ")) {
                return (long) Double.parseDouble(line.substring(sample.length() + 1));
            }
        }
        throw new AssertionError(replica + ": /metrics has no " + sample);
    }
}
