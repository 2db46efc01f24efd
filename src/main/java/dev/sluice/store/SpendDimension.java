package dev.sluice.store;

import java.util.List;

/** What a daily rollup counts spend by: the names in {@code sluice_daily_spend.dimension}. */
public enum SpendDimension {
    KEY("key"),
    TEAM("team"),
    MODEL_GROUP("model_group"),
    DEPLOYMENT("deployment"),
    TAG("tag"),
    /** A key's calls to one model group, named {@link #keyModel}: what a per-model budget is held against. */
    KEY_MODEL("key_model"),
    /**
     * A key's calls under one team, named {@link #keyTeam}: which team a key's calls counted
     * under, for a report by team to break a team's spend down by key and model.
     */
    KEY_TEAM("key_team");

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
            case KEY_MODEL -> row.keyHash().map(hash -> List.of(keyModel(hash, row.modelGroup()))).orElse(List.of());
            case KEY_TEAM -> row.keyHash().flatMap(hash -> row.teamId().map(team -> List.of(keyTeam(hash, team))))
                    .orElse(List.of());
        };
    }

    /** The name of a key's calls to a model group in the {@link #KEY_MODEL} dimension. */
    public static String keyModel(String keyHash, String modelGroup) {
        return keyHash + ':' + modelGroup;
    }

    /** The name of a key's calls under a team in the {@link #KEY_TEAM} dimension: a key's hash has no colon, so the first one ends it. */
    public static String keyTeam(String keyHash, String teamId) {
        return keyHash + ':' + teamId;
    }

    static SpendDimension ofColumn(String column) {
        for (SpendDimension dimension : values()) {
            if (dimension.column.equals(column)) {
                return dimension;
            }
        }
        throw new IllegalArgumentException("dimension: \"" + column + "\" (expected: one of key, team, model_group, "
                + "deployment, tag, key_model, key_team)");
    }
}
