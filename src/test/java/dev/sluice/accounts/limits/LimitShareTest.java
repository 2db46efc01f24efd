package dev.sluice.accounts.limits;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** A replica's share of what was left of a window while it decides alone among others. */
class LimitShareTest {

    @Test
    void whatWasLeftIsDividedByTheReplicasRoundedDown() {
        assertThat(LimitShare.ofWhatIsLeft(10, 4, 2)).as("6 left, two replicas").isEqualTo(3);
        assertThat(LimitShare.ofWhatIsLeft(10, 3, 2)).as("7 left: the odd one is nobody's").isEqualTo(3);
        assertThat(LimitShare.ofWhatIsLeft(100, 0, 3)).isEqualTo(33);
    }

    @Test
    void theSharesOfOneRemainderNeverAddUpToMoreThanIt() {
        for (int replicas = 1; replicas <= 7; replicas++) {
            for (long used = 0; used <= 12; used++) {
                long left = Math.max(0, 10 - used);
                assertThat(replicas * LimitShare.ofWhatIsLeft(10, used, replicas)).as("%d replicas, %d used", replicas, used)
                        .isLessThanOrEqualTo(left);
            }
        }
    }

    @Test
    void oneLeftAmongTwoIsNothingForEitherAndTwoLeftIsOneEach() {
        assertThat(LimitShare.ofWhatIsLeft(10, 9, 2)).as("just below a whole share each").isZero();
        assertThat(LimitShare.ofWhatIsLeft(10, 8, 2)).as("a whole share each").isEqualTo(1);
    }

    @Test
    void aSpentWindowLeavesNothingEvenWhenOverspent() {
        assertThat(LimitShare.ofWhatIsLeft(10, 10, 1)).isZero();
        assertThat(LimitShare.ofWhatIsLeft(10, 11, 2)).as("counted past the limit").isZero();
        assertThat(LimitShare.ofWhatIsLeft(10, 9, 1)).as("one left, one replica").isEqualTo(1);
    }

    @Test
    void noReplicaSeenCountsAsThisOneAlone() {
        assertThat(LimitShare.ofWhatIsLeft(10, 4, 0)).isEqualTo(6);
        assertThat(LimitShare.ofWhatIsLeft(10, 4, 1)).isEqualTo(6);
    }

    @Test
    void requestsAndTokensShareWhatWasLeftAndParallelSharesTheWholeLimit() {
        Limits limits = Limits.NONE.withRpm(100).withTpm(1001).withMaxParallelRequests(3);
        Limits share = LimitShare.of(limits, 40, 1, 2);
        assertThat(share.rpm()).hasValue(30);
        assertThat(share.tpm()).hasValue(500);
        assertThat(share.maxParallelRequests()).as("3 / 2").hasValue(1);
        assertThat(LimitShare.of(limits, 0, 0, 4).maxParallelRequests()).as("3 / 4: none, so four hold at most 3").hasValue(0);
    }

    @Test
    void aLimitOfNothingStaysNothingAndAnUnsetOneStaysUnset() {
        Limits share = LimitShare.of(Limits.NONE.withRpm(0), 0, 0, 5);
        assertThat(share.rpm()).hasValue(0);
        assertThat(share.tpm()).isEqualTo(OptionalLong.empty());
        assertThat(share.maxParallelRequests()).isEqualTo(OptionalLong.empty());
    }
}
