package dev.sluice.router;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.ConfigLoader;
import dev.sluice.config.Deployment;
import dev.sluice.vendors.Providers;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class WeightedShuffleTest {

    private static List<Deployment> group(String... params) throws Exception {
        StringBuilder yaml = new StringBuilder("model_list:\n");
        for (int i = 0; i < params.length; i++) {
            yaml.append("  - model_name: g\n    litellm_params: {model: openai/m").append(i)
                    .append(", api_base: 'http://127.0.0.1:9/v1'").append(params[i].isEmpty() ? "" : ", " + params[i])
                    .append("}\n    model_info: {id: d").append(i).append("}\n");
        }
        return ConfigLoader.parse(yaml.toString(), Map.of(), Providers.knownPrefixes()).deployments();
    }

    private static Map<String, Integer> counts(List<Deployment> group, int picks, long seed) {
        WeightedShuffle shuffle = new WeightedShuffle(new Random(seed));
        Map<String, Integer> counts = new HashMap<>();
        for (int i = 0; i < picks; i++) {
            counts.merge(shuffle.pick(group).id(), 1, Integer::sum);
        }
        return counts;
    }

    @Test
    void weightZeroIsNeverPickedWhileAWeightedDeploymentExists() throws Exception {
        Map<String, Integer> counts = counts(group("weight: 1", "weight: 0"), 1000, 1);

        assertThat(counts).containsOnlyKeys("d0");
    }

    @Test
    void allZeroWeightsArePickedUniformly() throws Exception {
        Map<String, Integer> counts = counts(group("weight: 0", "weight: 0"), 1000, 2);

        assertThat(counts.get("d0")).isBetween(400, 600);
        assertThat(counts.get("d1")).isBetween(400, 600);
    }

    @Test
    void weightsSetTheShares() throws Exception {
        Map<String, Integer> counts = counts(group("weight: 9", "weight: 1"), 10_000, 3);

        assertThat(counts.get("d0")).isBetween(8800, 9200);
        assertThat(counts.get("d1")).isBetween(800, 1200);
    }

    @Test
    void aDeploymentWithoutAWeightCountsAsOneBesideWeightedOnes() throws Exception {
        Map<String, Integer> counts = counts(group("weight: 3", ""), 10_000, 4);

        assertThat(counts.get("d1")).isBetween(2300, 2700);
    }

    @Test
    void rpmSetsTheSharesWhenEveryDeploymentHasOneAndNoWeightIsSet() throws Exception {
        Map<String, Integer> counts = counts(group("rpm: 300", "rpm: 100"), 10_000, 5);

        assertThat(counts.get("d0")).isBetween(7300, 7700);
    }

    @Test
    void tpmIsUsedWhenRpmIsIncomplete() throws Exception {
        Map<String, Integer> counts = counts(group("rpm: 300, tpm: 1000", "tpm: 9000"), 10_000, 6);

        assertThat(counts.get("d1")).isBetween(8800, 9200);
    }

    @Test
    void noSharesMeansUniform() throws Exception {
        Map<String, Integer> counts = counts(group("", "", ""), 9000, 7);

        assertThat(counts.values()).allSatisfy(c -> assertThat(c).isBetween(2700, 3300));
    }

    @Test
    void sameSeedSamePicks() throws Exception {
        List<Deployment> group = group("weight: 2", "weight: 5", "weight: 1");
        WeightedShuffle a = new WeightedShuffle(new Random(42));
        WeightedShuffle b = new WeightedShuffle(new Random(42));
        for (int i = 0; i < 100; i++) {
            assertThat(a.pick(group).id()).isEqualTo(b.pick(group).id());
        }
    }

    @Test
    void pickAtTheVeryEndOfTheRangeStillLandsOnAPositiveShare() throws Exception {
        List<Deployment> group = group("weight: 1", "weight: 0");
        Random almostOne = new Random() {
            @Override
            public double nextDouble() {
                return Math.nextDown(1.0);
            }
        };

        assertThat(new WeightedShuffle(almostOne).pick(group).id()).isEqualTo("d0");
    }

    @Test
    void aCallersWeightsSendItsPicksToTheDeploymentsItListsAndLeaveTheOthersAsBackups() throws Exception {
        List<Deployment> group = group("weight: 9", "weight: 1", "");
        WeightedShuffle shuffle = new WeightedShuffle(new Random(3));
        Map<String, Integer> counts = new HashMap<>();
        for (int i = 0; i < 1000; i++) {
            counts.merge(shuffle.pick(group, Map.of("d1", 3.0, "d2", 1.0)).id(), 1, Integer::sum);
        }

        assertThat(counts).doesNotContainKey("d0");
        assertThat(counts.get("d1")).isBetween(700, 800);
        assertThat(counts.get("d2")).isBetween(200, 300);
    }

    @Test
    void weightsNamingNoCandidateLeaveTheConfiguredShares() throws Exception {
        List<Deployment> group = group("weight: 1", "weight: 0");
        WeightedShuffle shuffle = new WeightedShuffle(new Random(4));

        for (int i = 0; i < 100; i++) {
            assertThat(shuffle.pick(group, Map.of("elsewhere", 1.0)).id()).isEqualTo("d0");
        }
    }
}
