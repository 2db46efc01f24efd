package dev.sluice.store;

import java.util.List;
import java.util.Optional;

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
    KEY_TEAM("key_team"),
    /**
     * The calls made for one customer (a call's end user), named by its id: what a report by
     * customer reads. End users longer than {@link #MAX_END_USER_LENGTH} are not counted.
     */
    END_USER("end_user"),
    /**
     * A key's calls made for one customer, named {@link #keyEndUser}: a report by customer
     * breaks a customer's spend down by key.
     */
    END_USER_KEY("end_user_key"),
    /**
     * The calls one deployment served under one model group, named {@link #deploymentGroup}:
     * what a report by deployment reads.
     */
    DEPLOYMENT_GROUP("deployment_group");

    /** What parts a {@link #DEPLOYMENT_GROUP} name: the unit separator, which no deployment id or group name holds. */
    public static final char DEPLOYMENT_GROUP_SEPARATOR = '\u001f';

    /**
     * The longest end user a rollup counts, in characters: the longest customer id
     * ({@code sluice_customers.user_id}); with a key's hash and a colon it fits the rollup's name.
     */
    public static final int MAX_END_USER_LENGTH = 255;

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
            case KEY -> row.accounts().keyHash().map(List::of).orElse(List.of());
            case TEAM -> row.accounts().teamId().map(List::of).orElse(List.of());
            case MODEL_GROUP -> List.of(row.modelGroup());
            case DEPLOYMENT -> row.deploymentId().map(List::of).orElse(List.of());
            case TAG -> row.tags();
            case KEY_MODEL -> row.accounts().keyHash().map(hash -> List.of(keyModel(hash, row.modelGroup()))).orElse(List.of());
            case KEY_TEAM -> row.accounts().keyHash()
                    .flatMap(hash -> row.accounts().teamId().map(team -> List.of(keyTeam(hash, team))))
                    .orElse(List.of());
            case END_USER -> countedEndUser(row).map(List::of).orElse(List.of());
            case DEPLOYMENT_GROUP -> row.deploymentId().map(id -> List.of(deploymentGroup(id, row.modelGroup()))).orElse(List.of());
            case END_USER_KEY -> row.accounts().keyHash()
                    .flatMap(hash -> countedEndUser(row).map(user -> List.of(keyEndUser(hash, user))))
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

    /** The name of a key's calls for a customer in the {@link #END_USER_KEY} dimension: the key's hash ends at the first colon. */
    public static String keyEndUser(String keyHash, String endUser) {
        return keyHash + ':' + endUser;
    }

    /** The name of a deployment's calls under a model group in the {@link #DEPLOYMENT_GROUP} dimension. */
    public static String deploymentGroup(String deploymentId, String modelGroup) {
        return deploymentId + DEPLOYMENT_GROUP_SEPARATOR + modelGroup;
    }

    private static Optional<String> countedEndUser(SpendRow row) {
        return row.accounts().endUser().filter(user -> user.length() <= MAX_END_USER_LENGTH);
    }

    static SpendDimension ofColumn(String column) {
        for (SpendDimension dimension : values()) {
            if (dimension.column.equals(column)) {
                return dimension;
            }
        }
        throw new IllegalArgumentException("dimension: \"" + column + "\" (expected: one of key, team, model_group, "
                + "deployment, tag, key_model, key_team, end_user, end_user_key, deployment_group)");
    }
}
