package dev.sluice.limits;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** A replica's share of a limit while it counts on its own among others. */
class LimitShareTest {

    @Test
    void eachLimitIsDividedByTheReplicasRoundedDownButAtLeastOne() {
        Limits limits = Limits.NONE.withRpm(100).withTpm(1001).withMaxParallelRequests(3);
        Limits share = limits.shareOf(2);
        assertThat(share.rpm()).hasValue(50);
        assertThat(share.tpm()).hasValue(500);
        assertThat(share.maxParallelRequests()).hasValue(1);
        assertThat(limits.shareOf(3).maxParallelRequests()).as("3 / 3").hasValue(1);
        assertThat(limits.shareOf(4).maxParallelRequests()).as("3 / 4 still admits one").hasValue(1);
    }

    @Test
    void aLimitOfNothingStaysNothingAndAnUnsetOneStaysUnset() {
        Limits share = Limits.NONE.withRpm(0).shareOf(5);
        assertThat(share.rpm()).hasValue(0);
        assertThat(share.tpm()).isEqualTo(OptionalLong.empty());
    }

    @Test
    void oneReplicaKeepsTheWholeLimit() {
        Limits limits = Limits.NONE.withRpm(7);
        assertThat(limits.shareOf(1)).isSameAs(limits);
        assertThat(limits.shareOf(0)).isSameAs(limits);
    }

    @Test
    void aSubjectSharesTheLimitsOfEveryScope() {
        LimitSubject subject = LimitSubject.key("k", Limits.NONE.withRpm(10))
                .withModel("g", Limits.NONE.withTpm(90))
                .withTeam("t", Limits.NONE.withRpm(30));
        assertThat(subject.shareOf(3).limited()).extracting(scoped -> scoped.limits())
                .containsExactly(Limits.NONE.withRpm(3), Limits.NONE.withTpm(30), Limits.NONE.withRpm(10));
    }
}
