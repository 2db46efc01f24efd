package dev.sluice.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A spend buffer as an earlier version of the gateway left it: two segment files written by
 * that version's own buffer (kept under {@code src/test/resources}, made before it was
 * removed), and the rows they hold.
 */
public final class LegacySpendFixtures {
    /** The segment files, oldest first, as the earlier version named them. */
    public static final List<String> SEGMENTS =
            List.of("segment-00000000000000000000.jsonl", "segment-00000000000000000001.jsonl");
    private static final String RESOURCES = "/dev/sluice/store/legacy-spend-buffer/";

    private LegacySpendFixtures() {}

    /**
     * The rows in the segment files, in order: the first segment holds {@link #firstSegmentRows()},
     * the second the rest. Costs are distinct down to the last of the twelve decimals and their
     * sum is in {@link #sum}, so a sum shows any row missing or counted twice.
     */
    public static List<SpendRow> rows() {
        List<SpendRow> rows = new ArrayList<>(firstSegmentRows());
        rows.addAll(numbered("later", 20));
        return rows;
    }

    /** Every field set to an edge of its range, a row with nothing optional, then thirty plain ones. */
    static List<SpendRow> firstSegmentRows() {
        List<SpendRow> rows = new ArrayList<>();
        rows.add(SpendRow.builder("call-full", "gpt-4o", Instant.parse("2025-06-30T23:59:59.999999Z"))
                .keyHash(VirtualKey.hash("sk-a"))
                .teamId("team \"quoted\" ünïcode")
                .userId("user-1")
                .deploymentId("azure-eu/gpt-4o")
                .promptTokens(9_000_000_000L)
                .completionTokens(7)
                .totalTokens(9_000_000_007L)
                .cachedTokens(3)
                .cost(new BigDecimal("123456.000000000001"))
                .status(429)
                .durationMs(12_345)
                .tags(List.of("batch", "team:eu"))
                .build());
        rows.add(SpendRow.builder("call-bare", "claude", StoreFixtures.T0).cost(new BigDecimal("0.000000000001")).build());
        rows.addAll(numbered("earlier", 30));
        return rows;
    }

    private static List<SpendRow> numbered(String prefix, int count) {
        List<SpendRow> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            rows.add(SpendRow.builder(prefix + "-" + i, "gpt-4o", StoreFixtures.T0)
                    .keyHash(VirtualKey.hash("sk-a"))
                    .promptTokens(100 + i)
                    .completionTokens(20)
                    .cost(new BigDecimal(String.format("0.%012d", 1_000_003L * (i + 1) + (prefix.length() * 7L))))
                    .durationMs(450)
                    .build());
        }
        return rows;
    }

    public static BigDecimal sum(List<SpendRow> rows) {
        return rows.stream().map(SpendRow::cost).reduce(BigDecimal.ZERO, BigDecimal::add);
    }

    /** Copies the earlier version's segment files into {@code folder}, made when missing; the folder. */
    public static Path copyInto(Path folder) {
        try {
            Files.createDirectories(folder);
            for (String name : SEGMENTS) {
                try (InputStream in = LegacySpendFixtures.class.getResourceAsStream(RESOURCES + name)) {
                    if (in == null) {
                        throw new IllegalStateException("missing test resource " + RESOURCES + name);
                    }
                    Files.copy(in, folder.resolve(name));
                }
            }
            // The earlier version left its lock file beside the segments.
            Files.createFile(folder.resolve(LegacySpendBuffer.LOCK_FILE));
            return folder;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
