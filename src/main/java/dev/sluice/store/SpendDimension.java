package dev.sluice.store;

import java.util.List;

/** What a daily rollup counts spend by: the names in {@code sluice_daily_spend.dimension}. */
public enum SpendDimension {
    KEY("key"),
    TEAM("team"),
    MODEL_GROUP("model_group"),
    DEPLOYMENT("deployment"),
    TAG("tag");

    private final String column;

    SpendDimension(String column) {
        this.column = column;
    }

    /** The value in the table's {@code dimension} column. */
    public String column() {
        return column;
    }

    /** The names a row counts under in this dimension: none, one, or (tags) several. */
    List<String> namesOf(SpendRow row) {
        return switch (this) {
            case KEY -> row.keyHash().map(List::of).orElse(List.of());
            case TEAM -> row.teamId().map(List::of).orElse(List.of());
            case MODEL_GROUP -> List.of(row.modelGroup());
            case DEPLOYMENT -> row.deploymentId().map(List::of).orElse(List.of());
            case TAG -> row.tags();
        };
    }

    static SpendDimension ofColumn(String column) {
        for (SpendDimension dimension : values()) {
            if (dimension.column.equals(column)) {
                return dimension;
            }
        }
        throw new IllegalArgumentException("dimension: \"" + column + "\" (expected: one of key, team, model_group, "
                + "deployment, tag)");
    }
}
