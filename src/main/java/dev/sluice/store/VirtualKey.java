package dev.sluice.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.wire.Json;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A virtual key as stored: the SHA-256 of the key (never the key), its limits and budgets,
 * and its spend so far. Field names follow LiteLLM's {@code LiteLLM_VerificationToken}.
 * Immutable; {@link #toBuilder()} makes a changed copy.
 *
 * @param tokenHash           SHA-256 of the key, 64 lowercase hex digits ({@link #hash})
 * @param keyAlias            a unique name the owner gave the key
 * @param keyName             the key masked for display, {@code sk-...abcd} ({@link #maskedName})
 * @param owner               the key's team and internal user
 * @param models              model groups the key may call; empty allows every group
 * @param budget              what the key may spend per budget period, and its spend so far
 * @param limits              the key's rpm, tpm and parallel-call limits
 * @param modelLimits         the key's budgets and rate limits per model group
 * @param metadata            the owner's JSON object, kept as given
 * @param lifetime            when the key was made and changed, and when it expires
 * @param blocked             a blocked key is refused until unblocked
 * @param aliases             names the key's calls may send in {@code model}, each to the model it stands for
 */
public record VirtualKey(
        String tokenHash,
        Optional<String> keyAlias,
        String keyName,
        KeyOwner owner,
        List<String> models,
        AccountBudget budget,
        AccountLimits limits,
        ModelLimits modelLimits,
        ObjectNode metadata,
        KeyLifetime lifetime,
        boolean blocked,
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
        Objects.requireNonNull(owner, "owner");
        models = Frozen.list("models", models);
        Objects.requireNonNull(budget, "budget");
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(modelLimits, "modelLimits");
        metadata = Frozen.object(metadata);
        Objects.requireNonNull(lifetime, "lifetime");
        aliases = Frozen.map("aliases", aliases);
    }

    /** When the key was made. */
    @Override
    public Instant createdAt() {
        return lifetime.createdAt();
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
            teamId = key.owner.teamId().orElse(null);
            userId = key.owner.userId().orElse(null);
            maxParallelRequests = AccountLimits.boxed(key.limits.maxParallelRequests());
            modelMaxBudget = key.modelLimits.modelMaxBudget();
            modelRpmLimit = key.modelLimits.modelRpmLimit();
            modelTpmLimit = key.modelLimits.modelTpmLimit();
            expiresAt = key.lifetime.expiresAt().orElse(null);
            blocked = key.blocked;
            updatedAt = key.lifetime.updatedAt();
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
            KeyOwner owner = new KeyOwner(Optional.ofNullable(teamId), Optional.ofNullable(userId));
            ModelLimits modelLimits = new ModelLimits(modelMaxBudget, modelRpmLimit, modelTpmLimit);
            KeyLifetime lifetime = new KeyLifetime(createdAt, updatedAt == null ? createdAt : updatedAt,
                    Optional.ofNullable(expiresAt));
            return new VirtualKey(tokenHash, Optional.ofNullable(keyAlias), keyName, owner, models, budget(),
                    limits(maxParallelRequests), modelLimits, metadata, lifetime, blocked, aliases);
        }
    }
}
