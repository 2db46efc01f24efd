package dev.sluice.registry;

import static dev.sluice.registry.ReplicaPair.servedBy;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.CalendarMinutes;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.GatewayProcess;
import dev.sluice.testing.TestRedis;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live routing cells of the reliability registry: how the two replicas pick a deployment
 * by weight, by price and by latency (the last two named per request, so one config serves
 * every strategy and the per-request override is tested with its signals), prompt-cache
 * affinity across replicas, and tag routing. Like {@link RouterCellsIT}, every cell has groups and mock
 * upstreams of its own, and the replicas start once for the class.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RoutingCellsIT {
    private static final String SAMPLES_RECEIVED = "sluice_redis_latency_samples_received_total";
    private final ReplicaPair pair = new ReplicaPair();
    private GatewayProcess a;
    private GatewayProcess b;

    @BeforeAll
    void startReplicas(@TempDir Path folder) {
        for (String name : List.of("shuffle-heavy", "shuffle-light", "shuffle-backup", "cost-dear", "cost-cheap",
                "latency-fast", "cache-x", "cache-y", "usage-small", "usage-large", "usage2-small", "usage2-large", "tags-paid",
                "tags-std", "tags-strict")) {
            pair.mock(MockOptions.defaults(name, MockMode.OK));
        }
        pair.mock(MockOptions.defaults("latency-slow", MockMode.SLOW).withDelay(Duration.ofMillis(300)));
        String modelList = pair.deployment("shuffle", "shuffle-heavy", "shuffle-heavy", "weight: 3")
                + pair.deployment("shuffle", "shuffle-light", "shuffle-light", "weight: 1")
                + pair.deployment("shuffle", "shuffle-backup", "shuffle-backup", "weight: 0")
                + pair.deployment("cost", "cost-dear", "cost-dear", "input_cost_per_token: 0.00001, output_cost_per_token: 0.00002")
                + pair.deployment("cost", "cost-cheap", "cost-cheap", "input_cost_per_token: 0.000001, output_cost_per_token: 0.000002")
                + pair.deployment("latency", "latency-slow", "latency-slow", "")
                + pair.deployment("latency", "latency-fast", "latency-fast", "")
                + pair.deployment("cache", "cache-x", "cache-x", "")
                + pair.deployment("cache", "cache-y", "cache-y", "")
                + pair.deployment("usage", "usage-small", "usage-small", "rpm: 2")
                + pair.deployment("usage", "usage-large", "usage-large", "rpm: 1000")
                + pair.deployment("usage2", "usage2-small", "usage2-small", "rpm: 2")
                + pair.deployment("usage2", "usage2-large", "usage2-large", "rpm: 1000")
                + pair.deployment("tags", "tags-paid", "tags-paid", "tags: [paid]")
                + pair.deployment("tags", "tags-std", "tags-std", "tags: [default]")
                + pair.deployment("tags-strict", "tags-strict", "tags-strict", "tags: [free]");
        // Tag filtering changes nothing for the other cells: their deployments and requests carry no tags.
        pair.start(folder, modelList, "", """
                  optional_pre_call_checks: [prompt_caching]
                  enable_tag_filtering: true
                """);
        a = pair.a();
        b = pair.b();
    }

    @AfterAll
    void stopReplicas() {
        pair.close();
    }

    @Test
    void simpleShuffleFollowsWeightsAndKeepsTheBackupIdle() {
        Map<String, Integer> picks = new TreeMap<>();
        for (int i = 0; i < 80; i++) {
            GatewayProcess replica = i % 2 == 0 ? a : b;
            picks.merge(servedBy(replica.post("/v1/chat/completions", ReplicaPair.chat("shuffle", "hi", ""))), 1, Integer::sum);
        }
        assertThat(picks.keySet()).as("picks of 80 calls: %s", picks).containsExactlyInAnyOrder("shuffle-heavy", "shuffle-light");
        // Weight 3 against 1: 60 of 80 expected, with a standard deviation of about 4; equal weights would give 40.
        assertThat(picks.get("shuffle-heavy")).as("weight 3 against weight 1, over 80 calls: %s", picks).isBetween(46, 74);
        assertThat(pair.requests("shuffle-backup")).as("the weight-0 backup, while the others are healthy").isZero();
    }

    @Test
    void costBasedRoutingNamedPerRequestPicksTheCheapest() {
        for (int i = 0; i < 10; i++) {
            GatewayProcess replica = i % 2 == 0 ? a : b;
            HttpResponse<String> answer = replica.post("/v1/chat/completions",
                    ReplicaPair.chat("cost", "hi", ", \"router_settings_override\": {\"routing_strategy\": \"cost-based-routing\"}"));
            assertThat(servedBy(answer)).as("call %d through %s", i, replica.name()).isEqualTo("cost-cheap");
        }
        assertThat(pair.requests("cost-dear")).isZero();
    }

    @Test
    void latencyBasedRoutingNamedPerRequestMovesOffTheSlowDeployment() {
        String override = ", \"router_settings_override\": {\"routing_strategy\": \"latency-based-routing\"}";
        double samplesBefore = b.metric(SAMPLES_RECEIVED);
        Set<String> sampled = new HashSet<>();
        for (int i = 0; i < 2; i++) {
            sampled.add(servedBy(a.post("/v1/chat/completions", ReplicaPair.chat("latency", "hi", override))));
        }
        assertThat(sampled).as("deployments without a sample are tried first").containsExactlyInAnyOrder("latency-slow", "latency-fast");
        // Latency samples are published to the other replica, never stored: b counts those it takes in.
        Eventually.until("b has taken in a's two samples", Duration.ofSeconds(10),
                () -> b.metric(SAMPLES_RECEIVED) >= samplesBefore + 2);
        List<String> picks = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            GatewayProcess replica = i % 2 == 0 ? b : a;
            picks.add(replica.name() + ":" + servedBy(replica.post("/v1/chat/completions", ReplicaPair.chat("latency", "hi", override))));
        }
        assertThat(picks).as("once both have a sample, through either replica").allMatch(p -> p.endsWith(":latency-fast"));
        assertThat(pair.requests("latency-slow")).isEqualTo(1);
    }

    @Test
    void aCachedPrefixKeepsItsDeploymentThroughEitherReplica() throws InterruptedException {
        StringBuilder instructions = new StringBuilder();
        for (int i = 0; i < 250; i++) {
            instructions.append("Rule ").append(i).append(": answer politely and cite the clause you rely on. ");
        }
        String body = "{\"model\":\"cache\",\"messages\":[{\"role\":\"system\",\"content\":\"" + instructions
                + "\"},{\"role\":\"user\",\"content\":\"first question\"}]}";
        String holder = servedBy(a.post("/v1/chat/completions", body));
        // A pin is set in Redis and told to the other replica in one script: wait until the first
        // call's two cacheable prefixes (the system prompt, the whole call) are pinned there.
        Eventually.until("the pins are in Redis", Duration.ofSeconds(5), () -> TestRedis.countKeys(pair.redisPrefix() + "pins:*") >= 2);
        List<String> picks = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            GatewayProcess replica = i % 2 == 0 ? b : a;
            picks.add(replica.name() + ":" + servedBy(replica.post("/v1/chat/completions", body)));
        }
        assertThat(picks).as("every follow-up goes to %s, which holds the cached prefix", holder)
                .allMatch(p -> p.endsWith(":" + holder));
        String other = holder.equals("cache-x") ? "cache-y" : "cache-x";
        assertThat(pair.requests(other)).isZero();
    }

    @Test
    void usageBasedRoutingKeepsADeploymentWithinItsRpmAcrossBothReplicas() throws InterruptedException {
        assertWithinRpmAcrossReplicas("usage", "usage-based-routing");
    }

    @Test
    void usageBasedRoutingV2KeepsADeploymentWithinItsRpmAcrossBothReplicas() throws InterruptedException {
        assertWithinRpmAcrossReplicas("usage2", "usage-based-routing-v2");
    }

    /**
     * Ten calls alternating replicas, the strategy named per request: the deployment with
     * {@code rpm: 2} takes at most two of them in the minute whichever replica sent them (each
     * attempt claims its place in Redis first), and the rest go to its roomy sibling.
     */
    private void assertWithinRpmAcrossReplicas(String group, String strategy) throws InterruptedException {
        CalendarMinutes.awayFromTheEnd(Duration.ofSeconds(10)); // the windows are calendar minutes
        String override = ", \"router_settings_override\": {\"routing_strategy\": \"" + strategy + "\"}";
        Map<String, Integer> picks = new TreeMap<>();
        for (int i = 0; i < 10; i++) {
            GatewayProcess replica = i % 2 == 0 ? a : b;
            HttpResponse<String> answer = replica.post("/v1/chat/completions", ReplicaPair.chat(group, "hi", override));
            picks.merge(servedBy(answer), 1, Integer::sum);
            assertThat(answer.headers().firstValue("x-litellm-attempted-retries")).as("a full deployment is no failure").hasValue("0");
        }
        assertThat(pair.requests(group + "-small")).as("rpm 2 across both replicas: %s", picks).isBetween(1, 2);
        assertThat(pair.requests(group + "-small") + pair.requests(group + "-large")).isEqualTo(10);
    }

    @Test
    void tagsSendEachRequestOnlyToTheDeploymentsItsTagsAllowThroughEitherReplica() {
        for (int i = 0; i < 10; i++) {
            GatewayProcess replica = i % 2 == 0 ? a : b;
            HttpResponse<String> tagged = i % 4 < 2
                    ? replica.post("/v1/chat/completions", ReplicaPair.chat("tags", "hi", ", \"tags\": [\"paid\"]"))
                    : replica.post("/v1/chat/completions", ReplicaPair.chat("tags", "hi", ""), "x-litellm-tags", "paid");
            assertThat(servedBy(tagged)).as("tagged call %d through %s", i, replica.name()).isEqualTo("tags-paid");
        }
        for (int i = 0; i < 6; i++) {
            GatewayProcess replica = i % 2 == 0 ? b : a;
            assertThat(servedBy(replica.post("/v1/chat/completions", ReplicaPair.chat("tags", "hi", ""))))
                    .as("untagged call %d through %s", i, replica.name()).isEqualTo("tags-std");
        }
        assertThat(pair.requests("tags-paid")).isEqualTo(10);
        assertThat(pair.requests("tags-std")).isEqualTo(6);

        for (GatewayProcess replica : List.of(a, b)) {
            HttpResponse<String> refused = replica.post("/v1/chat/completions",
                    ReplicaPair.chat("tags-strict", "hi", ", \"tags\": [\"gold\"]"));
            assertThat(refused.statusCode()).as("%s: %s", replica.name(), refused.body()).isEqualTo(400);
            assertThat(ReplicaPair.errorCode(refused)).isEqualTo("no_deployments_with_tag_routing");
            assertThat(ReplicaPair.parse(refused.body()).path("error").path("message").asText())
                    .contains("Passed model=tags-strict and tags=[gold]", "model group 'tags-strict'");
        }
        assertThat(pair.requests("tags-strict")).as("a refusal reaches no deployment").isZero();
        assertThat(pair.requests("tags-paid") + pair.requests("tags-std")).isEqualTo(16);
    }
}
