package dev.sluice.accounts.spend;

/**
 * What a call used that is billed by something other than tokens: images generated (and
 * their pixels), characters spoken, seconds of audio heard, rerank queries. Priced by the
 * deployment's {@link dev.sluice.config.UnitPrices}.
 */
public record BilledUnits(long images, long pixels, long characters, double seconds, long queries) {

    /** A call billed by its tokens only. */
    public static final BilledUnits NONE = new BilledUnits(0, 0, 0, 0, 0);

    public BilledUnits {
        if (images < 0 || pixels < 0 || characters < 0 || seconds < 0 || queries < 0) {
            throw new IllegalArgumentException("units: " + images + "/" + pixels + "/" + characters + "/" + seconds + "/" + queries
                    + " (expected: each >= 0)");
        }
    }
}
