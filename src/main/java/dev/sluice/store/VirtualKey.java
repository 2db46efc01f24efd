package dev.sluice.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.json.Json;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/**
 * A virtual key as stored: the SHA-256 of the key (never the key), its limits and budgets,
 * and its spend so far. Field names follow LiteLLM's {@code LiteLLM_VerificationToken}.
 * Immutable; {@link #toBuilder()} makes a changed copy.
 *
 * @param tokenHash           SHA-256 of the key, 64 lowercase hex digits ({@link #hash})
 * @param keyAlias            a unique name the owner gave the key
 * @param keyName             the key masked for display, {@code sk-...abcd} ({@link #maskedName})
 * @param models              model groups the key may call; empty allows every group
 * @param maxBudget           dollars the key may spend per budget period (ever, without one)
 * @param budgetDuration      the budget period as written: {@code 30s}, {@code 30m}, {@code 30h}, {@code 30d}
 * @param budgetResetAt       when spend next goes back to zero
 * @param spend               dollars spent in the current period, {@link Money scale 12}
 * @param maxParallelRequests calls the key may have in flight at once
 * @param modelMaxBudget      per model group: a budget and its period
 * @param modelRpmLimit       per model group: requests per minute
 * @param modelTpmLimit       per model group: tokens per minute
 * @param metadata            the owner's JSON object, kept as given
 * @param expiresAt           after this instant the key is refused
 * @param blocked             a blocked key is refused until unblocked
 * @param aliases             names the key's calls may send in {@code model}, each to the model it stands for
 */
public record VirtualKey(
        String tokenHash,
        Optional<String> keyAlias,
        String keyName,
        Optional<String> teamId,
        Optional<String> userId,
        List<String> models,
        Optional<BigDecimal> maxBudget,
        Optional<String> budgetDuration,
        Optional<Instant> budgetResetAt,
        BigDecimal spend,
        OptionalLong rpmLimit,
        OptionalLong tpmLimit,
        OptionalInt maxParallelRequests,
        Map<String, ModelBudget> modelMaxBudget,
        Map<String, Long> modelRpmLimit,
        Map<String, Long> modelTpmLimit,
        ObjectNode metadata,
        Optional<Instant> expiresAt,
        Instant createdAt,
        boolean blocked,
        Instant updatedAt,
        Map<String, String> aliases) implements BudgetHolder {

    private static final Pattern SHA256_HEX = Pattern.compile("[0-9a-f]{64}");

    public VirtualKey {
        Objects.requireNonNull(tokenHash, "tokenHash");
        if (!SHA256_HEX.matcher(tokenHash).matches()) {
            throw new IllegalArgumentException("token_hash: " + shorten(tokenHash)
                    + " (expected: a SHA-256 digest in 64 lowercase hex digits)");
        }
        Objects.requireNonNull(keyAlias, "keyAlias");
        Objects.requireNonNull(keyName, "keyName");
        Objects.requireNonNull(teamId, "teamId");
        Objects.requireNonNull(userId, "userId");
        models = Frozen.list("models", models);
        maxBudget = Objects.requireNonNull(maxBudget, "maxBudget").map(b -> Money.nonNegative("max_budget", b));
        Objects.requireNonNull(budgetDuration, "budgetDuration");
        budgetResetAt = Columns.micros(Objects.requireNonNull(budgetResetAt, "budgetResetAt"));
        spend = Money.nonNegative("spend", spend);
        Limits.check("rpm_limit", rpmLimit);
        Limits.check("tpm_limit", tpmLimit);
        Limits.check("max_parallel_requests", maxParallelRequests);
        modelMaxBudget = Frozen.map("model_max_budget", modelMaxBudget);
        modelRpmLimit = Frozen.limits("model_rpm_limit", modelRpmLimit);
        modelTpmLimit = Frozen.limits("model_tpm_limit", modelTpmLimit);
        metadata = Frozen.object(metadata);
        expiresAt = Columns.micros(Objects.requireNonNull(expiresAt, "expiresAt"));
        createdAt = Columns.micros(Objects.requireNonNull(createdAt, "createdAt"));
        updatedAt = Columns.micros(Objects.requireNonNull(updatedAt, "updatedAt"));
        aliases = Frozen.map("aliases", aliases);
    }

    /** A copy: the record stays unchanged whatever the caller does with it. */
    @Override
    public ObjectNode metadata() {
        return metadata.deepCopy();
    }

    /**
     * The text entries of {@code metadata.tags}: tags every call through this key carries.
     * Read without copying the whole metadata, as it is on every call.
     */
    public List<String> metadataTags() {
        return Json.texts(metadata.get("tags"));
    }

    /** The stored form of a key: its SHA-256 digest in lowercase hex, as LiteLLM stores keys. */
    public static String hash(String rawKey) {
        Objects.requireNonNull(rawKey, "rawKey");
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(rawKey.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    /** The key masked for display as LiteLLM shows it: {@code sk-...} and its last four characters. */
    public static String maskedName(String rawKey) {
        Objects.requireNonNull(rawKey, "rawKey");
        return "sk-..." + rawKey.substring(Math.max(0, rawKey.length() - 4));
    }

    /** A key with no limits, no budget and no spend, owned by no one: set what it needs on the builder. */
    public static Builder builder(String tokenHash, String keyName, Instant createdAt) {
        return new Builder(tokenHash, keyName, createdAt);
    }

    public Builder toBuilder() {
        return new Builder(this);
    }

    private static String shorten(String value) {
        return value.length() <= 16 ? value : value.substring(0, 16) + "...";
    }

    /**
     * Builds a {@link VirtualKey}; values are checked by {@link #build()}. A setter given
     * {@code null} clears the value.
     */
    public static final class Builder extends BudgetHolder.Builder<Builder> {
        private String tokenHash;
        private String keyAlias;
        private String keyName;
        private String teamId;
        private String userId;
        private Integer maxParallelRequests;
        private Map<String, ModelBudget> modelMaxBudget = Map.of();
        private Map<String, Long> modelRpmLimit = Map.of();
        private Map<String, Long> modelTpmLimit = Map.of();
        private Instant expiresAt;
        private boolean blocked;
        private Instant updatedAt;
        private Map<String, String> aliases = Map.of();

        private Builder(String tokenHash, String keyName, Instant createdAt) {
            super(createdAt);
            this.tokenHash = tokenHash;
            this.keyName = keyName;
        }

        private Builder(VirtualKey key) {
            super(key);
            tokenHash = key.tokenHash;
            keyAlias = key.keyAlias.orElse(null);
            keyName = key.keyName;
            teamId = key.teamId.orElse(null);
            userId = key.userId.orElse(null);
            maxParallelRequests = Limits.boxed(key.maxParallelRequests);
            modelMaxBudget = key.modelMaxBudget;
            modelRpmLimit = key.modelRpmLimit;
            modelTpmLimit = key.modelTpmLimit;
            expiresAt = key.expiresAt.orElse(null);
            blocked = key.blocked;
            updatedAt = key.updatedAt;
            aliases = key.aliases;
        }

        public Builder tokenHash(String tokenHash) {
            this.tokenHash = tokenHash;
            return this;
        }

        public Builder keyAlias(String keyAlias) {
            this.keyAlias = keyAlias;
            return this;
        }

        public Builder keyName(String keyName) {
            this.keyName = keyName;
            return this;
        }

        public Builder teamId(String teamId) {
            this.teamId = teamId;
            return this;
        }

        public Builder userId(String userId) {
            this.userId = userId;
            return this;
        }

        public Builder maxParallelRequests(Integer maxParallelRequests) {
            this.maxParallelRequests = maxParallelRequests;
            return this;
        }

        public Builder modelMaxBudget(Map<String, ModelBudget> modelMaxBudget) {
            this.modelMaxBudget = modelMaxBudget == null ? Map.of() : modelMaxBudget;
            return this;
        }

        public Builder modelRpmLimit(Map<String, Long> modelRpmLimit) {
            this.modelRpmLimit = modelRpmLimit == null ? Map.of() : modelRpmLimit;
            return this;
        }

        public Builder modelTpmLimit(Map<String, Long> modelTpmLimit) {
            this.modelTpmLimit = modelTpmLimit == null ? Map.of() : modelTpmLimit;
            return this;
        }

        public Builder expiresAt(Instant expiresAt) {
            this.expiresAt = expiresAt;
            return this;
        }

        /** When the key was last changed; {@code null} gives its creation time. */
        public Builder updatedAt(Instant updatedAt) {
            this.updatedAt = updatedAt;
            return this;
        }

        public Builder blocked(boolean blocked) {
            this.blocked = blocked;
            return this;
        }

        public Builder aliases(Map<String, String> aliases) {
            this.aliases = aliases == null ? Map.of() : aliases;
            return this;
        }

        /** @throws IllegalArgumentException naming the field, the value and the rule it breaks */
        public VirtualKey build() {
            return new VirtualKey(tokenHash, Optional.ofNullable(keyAlias), keyName, Optional.ofNullable(teamId),
                    Optional.ofNullable(userId), models, Optional.ofNullable(maxBudget),
                    Optional.ofNullable(budgetDuration), Optional.ofNullable(budgetResetAt), spend,
                    Limits.optional(rpmLimit), Limits.optional(tpmLimit), Limits.optional(maxParallelRequests),
                    modelMaxBudget, modelRpmLimit, modelTpmLimit, metadata, Optional.ofNullable(expiresAt),
                    createdAt, blocked, updatedAt == null ? createdAt : updatedAt, aliases);
        }
    }
}
