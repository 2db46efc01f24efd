package dev.sluice.store;

import dev.sluice.model.Required;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Which rows of the spend log a reading keeps: those of one call, one key, one user, one end
 * user, each when named, that started in {@code [from, to)}.
 *
 * @param keyHash the key's {@link VirtualKey#tokenHash() hash}
 * @param userId  the user the key belongs to, as LiteLLM's {@code user}
 * @param endUser the customer the call was made for, as LiteLLM's {@code end_user}
 */
public record SpendLogFilter(Optional<String> callId, Optional<String> keyHash, Optional<String> userId,
        Optional<String> endUser, Instant from, Instant to) {
    /** Later than any call's start: the end of a reading that names none. */
    public static final Instant END_OF_TIME = Instant.parse("9999-12-31T00:00:00Z");

    public SpendLogFilter {
        Required.nonNull("callId, keyHash, userId, endUser, from, to", callId, keyHash, userId, endUser, from, to);
    }

    /** Every row that started in {@code [from, to)}. */
    public static SpendLogFilter between(Instant from, Instant to) {
        return new SpendLogFilter(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), from, to);
    }

    public boolean keeps(SpendRow row) {
        return (callId.isEmpty() || callId.equals(Optional.of(row.callId())))
                && (keyHash.isEmpty() || keyHash.equals(row.accounts().keyHash()))
                && (userId.isEmpty() || userId.equals(row.accounts().userId()))
                && (endUser.isEmpty() || endUser.equals(row.accounts().endUser()))
                && !row.startedAt().isBefore(from) && row.startedAt().isBefore(to);
    }

    /** The filter as SQL over {@code sluice_spend_logs}: the start times always, each name when set. */
    Where where() {
        List<String> conditions = new ArrayList<>(List.of("started_at >= ?", "started_at < ?"));
        List<String> values = new ArrayList<>();
        matchColumn(conditions, values, "call_id", callId);
        matchColumn(conditions, values, "key_hash", keyHash);
        matchColumn(conditions, values, "user_id", userId);
        matchColumn(conditions, values, "end_user", endUser);
        return new Where(" WHERE " + String.join(" AND ", conditions), values);
    }

    /** Adds {@code column = ?} and its value when the filter names one. */
    private static void matchColumn(List<String> conditions, List<String> values, String column, Optional<String> value) {
        value.ifPresent(named -> {
            conditions.add(column + " = ?");
            values.add(named);
        });
    }
}
