package dev.sluice.router.strategy;

import java.util.random.RandomGenerator;

/**
 * Picks uniformly among the lowest scores, so equal deployments share traffic instead of
 * the first in the list taking it all. Scores may be {@code +Infinity} (unknown, sorted last);
 * the random source is drawn from only when there is more than one to choose from.
 */
final class LowestScore {
    private LowestScore() {}

    /**
     * The index of one of the scores no higher than {@code lowest × (1 + slack)}, chosen at
     * random; with a slack of 0, one of the scores equal to the lowest.
     *
     * @param scores at least one; a NaN counts as {@code +Infinity}
     * @param slack  a fraction {@code >= 0}
     */
    static int pick(double[] scores, double slack, RandomGenerator random) {
        double lowest = Double.POSITIVE_INFINITY;
        for (int i = 0; i < scores.length; i++) {
            if (Double.isNaN(scores[i])) {
                scores[i] = Double.POSITIVE_INFINITY;
            }
            lowest = Math.min(lowest, scores[i]);
        }
        // Infinity × 0 is NaN, so an all-unknown set (or no slack) keeps the lowest as it is.
        double ceiling = slack == 0 || Double.isInfinite(lowest) ? lowest : lowest + lowest * slack;
        int within = 0;
        for (double score : scores) {
            if (score <= ceiling) {
                within++;
            }
        }
        int chosen = within == 1 ? 0 : random.nextInt(within);
        for (int i = 0; i < scores.length; i++) {
            if (scores[i] <= ceiling && chosen-- == 0) {
                return i;
            }
        }
        throw new AssertionError("the lowest score is within its own ceiling");
    }

    /** A uniformly random index below {@code n}, without drawing when {@code n} is 1. */
    static int any(int n, RandomGenerator random) {
        return n == 1 ? 0 : random.nextInt(n);
    }
}
