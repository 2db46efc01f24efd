package dev.sluice.admin;

import dev.sluice.http.QueryParams;
import dev.sluice.wire.ApiError;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The {@code start_date} and {@code end_date} of a spend query: UTC days as LiteLLM writes
 * them, {@code YYYY-MM-DD}, both included. LiteLLM compares a call's start with the end
 * date's midnight, so a call later on the end day is left out there; here the end day counts
 * whole, as a report by day reads.
 */
record SpendDates(LocalDate start, LocalDate end) {
    private static final Pattern DAY = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");
    /**
     * The longest range a report covers, in days: an answer has an entry per day, so an end
     * date centuries away would fill the heap the gateway's calls share.
     */
    static final int MAX_DAYS = 366;

    /** Both dates, or empty when neither is given; one without the other is refused, naming the missing one. */
    static Optional<SpendDates> of(QueryParams query) {
        Optional<LocalDate> start = day(query, "start_date");
        Optional<LocalDate> end = day(query, "end_date");
        if (start.isEmpty() && end.isEmpty()) {
            return Optional.empty();
        }
        if (start.isEmpty() || end.isEmpty()) {
            String missing = start.isEmpty() ? "start_date" : "end_date";
            throw ApiError.invalidRequest("Missing required parameter: '" + missing + "' (start_date and end_date go "
                    + "together, each a date as YYYY-MM-DD).", missing, "missing_required_parameter");
        }
        if (end.get().isBefore(start.get())) {
            throw ApiError.invalidRequest("Invalid 'end_date': " + end.get() + " is before start_date " + start.get()
                    + " (expected: a date on or after start_date).", "end_date", "invalid_value");
        }
        if (start.get().plusDays(MAX_DAYS - 1).isBefore(end.get())) {
            long days = java.time.temporal.ChronoUnit.DAYS.between(start.get(), end.get()) + 1;
            throw ApiError.invalidRequest("Invalid 'end_date': " + start.get() + " to " + end.get() + " covers " + days
                    + " days (expected: at most " + MAX_DAYS + "; ask for a longer range in parts).", "end_date", "invalid_value");
        }
        return Optional.of(new SpendDates(start.get(), end.get()));
    }

    /** Both dates, which the route needs. */
    static SpendDates required(QueryParams query) {
        return of(query).orElseThrow(() -> ApiError.invalidRequest("Missing required parameter: 'start_date' (this "
                + "route needs start_date and end_date, each a date as YYYY-MM-DD).", "start_date", "missing_required_parameter"));
    }

    private static Optional<LocalDate> day(QueryParams query, String name) {
        Optional<String> text = query.text(name);
        if (text.isEmpty()) {
            return Optional.empty();
        }
        String value = text.get().strip();
        try {
            if (DAY.matcher(value).matches()) {
                return Optional.of(LocalDate.parse(value));
            }
        } catch (DateTimeParseException e) {
            // a day that does not exist, such as 2025-02-30: refused below like any other
        }
        String shown = value.length() <= 40 ? value : value.substring(0, 40) + "...";
        throw ApiError.invalidRequest("Invalid '" + name + "': \"" + shown + "\" (expected: a date as YYYY-MM-DD).", name,
                "invalid_value");
    }

    /** The first instant of the start day. */
    Instant from() {
        return start.atStartOfDay(ZoneOffset.UTC).toInstant();
    }

    /** The first instant after the end day. */
    Instant to() {
        return end.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant();
    }
}
