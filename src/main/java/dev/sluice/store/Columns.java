package dev.sluice.store;

import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * Statement parameters and result columns in the forms both engines read and write alike:
 * times as {@link OffsetDateTime} in UTC, money as {@link BigDecimal}, absent values as
 * SQL NULL of the column's type.
 */
final class Columns {
    private Columns() {}

    /** Instants as the columns hold them: microseconds, PostgreSQL's finest. */
    static Instant micros(Instant instant) {
        return instant.truncatedTo(ChronoUnit.MICROS);
    }

    static Optional<Instant> micros(Optional<Instant> instant) {
        return instant.map(Columns::micros);
    }

    static void text(PreparedStatement statement, int index, Optional<String> value) throws SQLException {
        if (value.isPresent()) {
            statement.setString(index, value.get());
        } else {
            statement.setNull(index, Types.VARCHAR);
        }
    }

    static void money(PreparedStatement statement, int index, Optional<BigDecimal> value) throws SQLException {
        if (value.isPresent()) {
            statement.setBigDecimal(index, value.get());
        } else {
            statement.setNull(index, Types.NUMERIC);
        }
    }

    static void bigint(PreparedStatement statement, int index, OptionalLong value) throws SQLException {
        if (value.isPresent()) {
            statement.setLong(index, value.getAsLong());
        } else {
            statement.setNull(index, Types.BIGINT);
        }
    }

    static void integer(PreparedStatement statement, int index, OptionalInt value) throws SQLException {
        if (value.isPresent()) {
            statement.setInt(index, value.getAsInt());
        } else {
            statement.setNull(index, Types.INTEGER);
        }
    }

    static void time(PreparedStatement statement, int index, Instant value) throws SQLException {
        statement.setObject(index, value.atOffset(ZoneOffset.UTC), Types.TIMESTAMP_WITH_TIMEZONE);
    }

    static void time(PreparedStatement statement, int index, Optional<Instant> value) throws SQLException {
        if (value.isPresent()) {
            time(statement, index, value.get());
        } else {
            statement.setNull(index, Types.TIMESTAMP_WITH_TIMEZONE);
        }
    }

    static Optional<String> text(ResultSet row, String column) throws SQLException {
        return Optional.ofNullable(row.getString(column));
    }

    static Optional<BigDecimal> money(ResultSet row, String column) throws SQLException {
        return Optional.ofNullable(row.getBigDecimal(column)).map(Money::of);
    }

    static OptionalLong bigint(ResultSet row, String column) throws SQLException {
        long value = row.getLong(column);
        return row.wasNull() ? OptionalLong.empty() : OptionalLong.of(value);
    }

    static OptionalInt integer(ResultSet row, String column) throws SQLException {
        int value = row.getInt(column);
        return row.wasNull() ? OptionalInt.empty() : OptionalInt.of(value);
    }

    static Optional<Instant> time(ResultSet row, String column) throws SQLException {
        return Optional.ofNullable(row.getObject(column, OffsetDateTime.class)).map(OffsetDateTime::toInstant);
    }

    static Instant requiredTime(ResultSet row, String column) throws SQLException {
        return time(row, column).orElseThrow(() -> new SQLException(column + " is NULL"));
    }
}
