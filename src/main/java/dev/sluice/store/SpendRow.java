package dev.sluice.store;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One call in the spend log: who made it, which group and deployment served it, what it
 * used and cost, and how it ended. The call id is the row's identity, so writing the same
 * row twice (a flush retried after a lost answer) records the call once.
 *
 * @param callId       the call's id, as in {@code x-litellm-call-id}
 * @param accounts     the key, team, user and customer the call is charged to
 * @param modelGroup   the group the caller asked for
 * @param deploymentId the deployment that answered last; empty when none was called
 * @param tokens       the tokens the call used
 * @param cost         dollars, {@link Money scale 12}
 * @param status       the HTTP status the caller got
 * @param durationMs   from the call's start to its last byte
 * @param startedAt    when the call arrived
 * @param tags         the call's tags: its request's, its key's and its team's, each once, in that order
 * @param cacheHit     whether the call was answered from the response cache, as LiteLLM's {@code cache_hit}
 * @param cacheKey     the response cache's key for the call ({@code namespace:} and a SHA-256 in hex), as LiteLLM's {@code cache_key}:
 *                     the entry that answered it, or that its answer was stored under; empty when the
 *                     cache was not asked
 */
public record SpendRow(
        String callId,
        SpendAccounts accounts,
        String modelGroup,
        Optional<String> deploymentId,
        SpendTokens tokens,
        BigDecimal cost,
        int status,
        long durationMs,
        Instant startedAt,
        List<String> tags,
        boolean cacheHit,
        Optional<String> cacheKey) {
    /** The most tags a row keeps, and the longest tag, in characters: what a column and a rollup hold. */
    public static final int MAX_TAGS = 32;
    public static final int MAX_TAG_LENGTH = 255;
    /** The longest cache key, in hex digits: a SHA-512 digest's, twice a SHA-256 one's. */
    /** A cache key: a namespace of up to 256 characters and a colon, if any, then a SHA-256 in lowercase hex. */
    public static final int MAX_CACHE_KEY_LENGTH = 256 + 1 + 64;
    private static final Pattern CACHE_KEY = Pattern.compile("(?:[^\\p{Cntrl}]{1,256}:)?[0-9a-f]{64}");

    public SpendRow {
        Objects.requireNonNull(callId, "callId");
        if (callId.isBlank()) {
            throw new IllegalArgumentException("call_id: \"" + callId + "\" (expected: a non-blank id)");
        }
        Objects.requireNonNull(accounts, "accounts");
        Objects.requireNonNull(modelGroup, "modelGroup");
        Objects.requireNonNull(deploymentId, "deploymentId");
        Objects.requireNonNull(tokens, "tokens");
        cost = Money.nonNegative("cost", cost);
        if (status < 100 || status > 599) {
            throw new IllegalArgumentException("status: " + status + " (expected: an HTTP status from 100 to 599)");
        }
        if (durationMs < 0) {
            throw new IllegalArgumentException("duration_ms: " + durationMs + " (expected: >= 0)");
        }
        startedAt = Columns.micros(Objects.requireNonNull(startedAt, "startedAt"));
        tags = tags.isEmpty() ? List.of() : List.copyOf(new LinkedHashSet<>(tags));
        if (tags.size() > MAX_TAGS) {
            throw new IllegalArgumentException("tags: " + tags.size() + " (expected: at most " + MAX_TAGS + ")");
        }
        for (String tag : tags) {
            if (tag.isBlank() || tag.length() > MAX_TAG_LENGTH) {
                throw new IllegalArgumentException("tags: \"" + tag + "\" (expected: 1 to " + MAX_TAG_LENGTH
                        + " characters, not only spaces)");
            }
        }
        Objects.requireNonNull(cacheKey, "cacheKey");
        if (cacheKey.isPresent() && !CACHE_KEY.matcher(cacheKey.get()).matches()) {
            String key = cacheKey.get();
            throw new IllegalArgumentException("cache_key: \"" + (key.length() <= 16 ? key : key.substring(0, 16) + "...")
                    + "\" (expected: 64 lowercase hex digits, after a namespace of up to 256 characters and a colon if any)");
        }
    }

    /** A row of zero tokens, zero cost and status 200: set what the call had on the builder. */
    public static Builder builder(String callId, String modelGroup, Instant startedAt) {
        return new Builder(callId, modelGroup, startedAt);
    }

    /**
     * Builds a {@link SpendRow}; values are checked by {@link #build()}. A setter given
     * {@code null} clears the value. {@link #totalTokens} defaults to prompt plus completion.
     */
    public static final class Builder {
        private final String callId;
        private final String modelGroup;
        private final Instant startedAt;
        private String keyHash;
        private String teamId;
        private String userId;
        private String deploymentId;
        private long promptTokens;
        private long completionTokens;
        private Long totalTokens;
        private long cachedTokens;
        private List<String> tags = List.of();
        private BigDecimal cost = Money.ZERO;
        private int status = 200;
        private long durationMs;
        private boolean cacheHit;
        private String cacheKey;
        private String endUser;

        private Builder(String callId, String modelGroup, Instant startedAt) {
            this.callId = callId;
            this.modelGroup = modelGroup;
            this.startedAt = startedAt;
        }

        public Builder keyHash(String keyHash) {
            this.keyHash = keyHash;
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

        public Builder deploymentId(String deploymentId) {
            this.deploymentId = deploymentId;
            return this;
        }

        public Builder promptTokens(long promptTokens) {
            this.promptTokens = promptTokens;
            return this;
        }

        public Builder completionTokens(long completionTokens) {
            this.completionTokens = completionTokens;
            return this;
        }

        public Builder totalTokens(long totalTokens) {
            this.totalTokens = totalTokens;
            return this;
        }

        public Builder cachedTokens(long cachedTokens) {
            this.cachedTokens = cachedTokens;
            return this;
        }

        public Builder tags(List<String> tags) {
            this.tags = tags == null ? List.of() : tags;
            return this;
        }

        public Builder cost(BigDecimal cost) {
            this.cost = cost == null ? Money.ZERO : cost;
            return this;
        }

        public Builder status(int status) {
            this.status = status;
            return this;
        }

        public Builder durationMs(long durationMs) {
            this.durationMs = durationMs;
            return this;
        }

        public Builder cacheHit(boolean cacheHit) {
            this.cacheHit = cacheHit;
            return this;
        }

        public Builder cacheKey(String cacheKey) {
            this.cacheKey = cacheKey;
            return this;
        }

        public Builder endUser(String endUser) {
            this.endUser = endUser;
            return this;
        }

        /** @throws IllegalArgumentException naming the field, the value and the rule it breaks */
        public SpendRow build() {
            long total = totalTokens != null ? totalTokens : promptTokens + completionTokens;
            SpendAccounts accounts = new SpendAccounts(Optional.ofNullable(keyHash), Optional.ofNullable(teamId),
                    Optional.ofNullable(userId), Optional.ofNullable(endUser));
            SpendTokens tokens = new SpendTokens(promptTokens, completionTokens, total, cachedTokens);
            return new SpendRow(callId, accounts, modelGroup, Optional.ofNullable(deploymentId), tokens, cost, status,
                    durationMs, startedAt, tags, cacheHit, Optional.ofNullable(cacheKey));
        }
    }
}
