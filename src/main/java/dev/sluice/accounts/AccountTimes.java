package dev.sluice.accounts;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.time.BudgetDuration;
import dev.sluice.wire.JsonFields;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;

/**
 * The instants a key or team API call sets from a period: when a budget next resets and
 * when a key expires. Both must fall before the year 10000, which every store engine can
 * hold; a period that reaches past it ({@code 999999999d}) is refused with a 400 rather
 * than failing in the database.
 */
public final class AccountTimes {
    private static final Instant LATEST = Instant.parse("9999-12-31T23:59:59Z");

    private AccountTimes() {}

    /** When a budget of {@code period} that starts {@code now} first resets, by LiteLLM's calendar rules. */
    public static Instant nextReset(BudgetDuration period, Instant now, ZoneId zone, String path, JsonNode given) {
        try {
            return bounded(period.nextReset(now, zone), path, given);
        } catch (DateTimeException | ArithmeticException e) {
            throw tooLong(path, given);
        }
    }

    /**
     * When a key that lives for {@code lifetime} from {@code now} expires: exactly that long
     * after, as LiteLLM counts a {@code duration}; months are calendar months in {@code zone}.
     */
    public static Instant expiry(BudgetDuration lifetime, Instant now, ZoneId zone, String path, JsonNode given) {
        long n = lifetime.amount();
        try {
            Instant expires = switch (lifetime.unit()) {
                case SECONDS -> now.plusSeconds(n);
                case MINUTES -> now.plus(Duration.ofMinutes(n));
                case HOURS -> now.plus(Duration.ofHours(n));
                case DAYS -> now.plus(Duration.ofDays(n));
                case WEEKS -> now.plus(Duration.ofDays(Math.multiplyExact(n, 7)));
                case MONTHS -> now.atZone(zone).plusMonths(n).toInstant();
            };
            return bounded(expires, path, given);
        } catch (DateTimeException | ArithmeticException e) {
            throw tooLong(path, given);
        }
    }

    private static Instant bounded(Instant at, String path, JsonNode given) {
        if (at.isAfter(LATEST)) {
            throw tooLong(path, given);
        }
        return at;
    }

    private static RuntimeException tooLong(String path, JsonNode given) {
        return JsonFields.invalid(path, given, "a period that ends before the year 10000");
    }
}
