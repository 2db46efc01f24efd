package dev.sluice.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The budget's bound, on both sides, and which bodies give way when it is full. */
class BodyBudgetTest {
    /** Every body may give way here from its first byte; see {@link #aSmallBodyNeverGivesWay}. */
    private final BodyBudget budget = new BodyBudget(10, 1);
    private final List<String> gaveWay = new ArrayList<>();

    private BodyClaim claim(String name) {
        return budget.claim(() -> gaveWay.add(name));
    }

    @Test
    void aBodyThatFindsNoRoomMakesTheSmallestBodyBehindItGiveWay() {
        BodyClaim ahead = claim("ahead");
        BodyClaim middle = claim("middle");
        BodyClaim behind = claim("behind");
        assertThat(budget.hold(ahead, 4)).isTrue();
        assertThat(budget.hold(middle, 3)).isTrue();
        assertThat(budget.hold(behind, 2)).isTrue();

        assertThat(budget.hold(ahead, 2)).isTrue();

        assertThat(gaveWay).containsExactly("behind");
        assertThat(behind.isReleased()).isTrue();
        assertThat(budget.held()).isEqualTo(9);
        assertThat(budget.hold(ahead, 4)).isTrue(); // the middle one gives way next
        assertThat(gaveWay).containsExactly("behind", "middle");
        assertThat(budget.held()).isEqualTo(10);
    }

    @Test
    void theBodyFurthestBehindIsRefusedAndNoBodyGivesWayToIt() {
        BodyClaim ahead = claim("ahead");
        BodyClaim behind = claim("behind");
        assertThat(budget.hold(ahead, 6)).isTrue();
        assertThat(budget.hold(behind, 4)).isTrue();

        assertThat(budget.hold(behind, 1)).isFalse();

        assertThat(gaveWay).isEmpty();
        assertThat(behind.held()).isEqualTo(4);
        assertThat(budget.held()).isEqualTo(10);
    }

    @Test
    void betweenBodiesHoldingAsMuchTheEarlierGoesOn() {
        BodyClaim first = claim("first");
        BodyClaim second = claim("second");
        assertThat(budget.hold(first, 5)).isTrue();
        assertThat(budget.hold(second, 5)).isTrue();

        assertThat(budget.hold(second, 1)).isFalse();
        assertThat(gaveWay).isEmpty();

        assertThat(budget.hold(first, 1)).isTrue();
        assertThat(gaveWay).containsExactly("second");
    }

    @Test
    void aBodyThatHasArrivedIsInUseAndNeverGivesWay() {
        BodyClaim done = claim("done");
        BodyClaim arriving = claim("arriving");
        assertThat(budget.hold(done, 3)).isTrue();
        assertThat(done.arrived()).isTrue();
        assertThat(budget.hold(arriving, 7)).isTrue();

        assertThat(budget.hold(arriving, 1)).isFalse();

        assertThat(gaveWay).isEmpty();
        assertThat(done.held()).isEqualTo(3);
    }

    @Test
    void aBodyThatGaveWayHoldsNothingMoreAndMakesNoOtherGiveWay() {
        BodyClaim ahead = claim("ahead");
        BodyClaim evicted = claim("evicted");
        BodyClaim small = claim("small");
        assertThat(budget.hold(ahead, 6)).isTrue();
        assertThat(budget.hold(evicted, 3)).isTrue();
        assertThat(budget.hold(small, 1)).isTrue();
        assertThat(budget.hold(ahead, 3)).isTrue(); // the smallest gives way first, then the next
        assertThat(gaveWay).containsExactly("small", "evicted");

        assertThat(budget.hold(evicted, 1)).isFalse();

        assertThat(gaveWay).containsExactly("small", "evicted");
        assertThat(budget.held()).isEqualTo(9);
    }

    @Test
    void aPieceLargerThanTheWholeBudgetMakesNoBodyGiveWay() {
        BodyClaim ahead = claim("ahead");
        BodyClaim behind = claim("behind");
        assertThat(budget.hold(ahead, 2)).isTrue();
        assertThat(budget.hold(behind, 1)).isTrue();

        assertThat(budget.hold(ahead, 9)).isFalse();

        assertThat(gaveWay).isEmpty();
        assertThat(budget.held()).isEqualTo(3);
    }

    @Test
    void aBodyThatGaveWayHasNotArrivedWhenItsLastBytesCome() {
        BodyClaim ahead = claim("ahead");
        BodyClaim behind = claim("behind");
        assertThat(budget.hold(ahead, 6)).isTrue();
        assertThat(budget.hold(behind, 4)).isTrue();
        assertThat(budget.hold(ahead, 2)).isTrue();

        assertThat(behind.arrived()).as("what came after it gave way was not kept").isFalse();
        assertThat(ahead.arrived()).isTrue();
    }

    @Test
    void aSmallBodyNeverGivesWay() {
        BodyBudget bounded = new BodyBudget(12, 4);
        BodyClaim ahead = bounded.claim(() -> gaveWay.add("ahead"));
        BodyClaim small = bounded.claim(() -> gaveWay.add("small"));
        BodyClaim large = bounded.claim(() -> gaveWay.add("large"));
        assertThat(bounded.hold(ahead, 5)).isTrue();
        assertThat(bounded.hold(small, 3)).isTrue(); // under 4: never one that may give way
        assertThat(bounded.hold(large, 1)).isTrue();
        assertThat(bounded.hold(large, 3)).isTrue(); // 4: from now on it may

        assertThat(bounded.hold(ahead, 5)).as("the large body's 4 bytes are not room enough, and the small one stays").isFalse();

        assertThat(gaveWay).containsExactly("large");
        assertThat(small.held()).isEqualTo(3);
    }

    @Test
    void aReleasedBodyLetsGoOfEverythingOnce() {
        BodyClaim claim = claim("claim");
        assertThat(budget.hold(claim, 4)).isTrue();

        claim.release();
        claim.release();

        assertThat(budget.held()).isZero();
        assertThat(claim.evict()).isFalse();
        assertThat(gaveWay).isEmpty();
    }

    @Test
    void bytesUpToTheLimitAreHeldAndOneMoreIsNot() {
        assertThat(budget.tryHold(4)).isTrue();
        assertThat(budget.tryHold(6)).isTrue();
        assertThat(budget.held()).isEqualTo(10);

        assertThat(budget.tryHold(1)).isFalse();
        assertThat(budget.held()).isEqualTo(10); // a refusal holds nothing
    }

    @Test
    void releasedBytesMakeRoomAgain() {
        assertThat(budget.tryHold(10)).isTrue();
        assertThat(budget.tryHold(3)).isFalse();

        budget.release(3);

        assertThat(budget.tryHold(3)).isTrue();
        assertThat(budget.tryHold(1)).isFalse();
    }

    @Test
    void aBodyLargerThanTheWholeBudgetIsNeverHeld() {
        assertThat(budget.tryHold(11)).isFalse();
        assertThat(budget.tryHold(Long.MAX_VALUE)).isFalse();
        assertThat(budget.held()).isZero();
    }
}
