package dev.sluice.http;

import dev.sluice.wire.ApiError;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpServerRequest;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The query parameters of a key or team API call (the first value of each), copied on the
 * event loop so the call's store work can read them on a worker. A malformed value is
 * refused with a 400 naming the parameter.
 */
public record QueryParams(Map<String, String> values) {
    public static final QueryParams NONE = new QueryParams(Map.of());

    public QueryParams {
        values = Map.copyOf(values);
    }

    /**
     * The request's query parameters. A query that is not valid percent-encoding is refused
     * with a 400 naming the parameter it is in, never a fault of Sluice's own.
     */
    public static QueryParams of(HttpServerRequest request) {
        QueryParams query;
        try {
            query = of(request.params());
        } catch (IllegalArgumentException e) {
            String param = malformedParameter(request.query());
            throw ApiError.invalidRequest("The query string is malformed" + (param == null ? "" : " in '" + param + "'")
                    + ": " + e.getMessage(), param, "invalid_query");
        }
        for (Map.Entry<String, String> param : query.values().entrySet()) {
            if (param.getKey().indexOf('\0') >= 0 || param.getValue().indexOf('\0') >= 0) {
                throw ApiError.invalidRequest("Invalid '" + param.getKey().replace('\0', '?')
                        + "': it contains a NUL character, which no name, id or key may hold.", param.getKey().replace('\0', '?'),
                        "invalid_value");
            }
        }
        return query;
    }

    /** The name of the first parameter whose name or value does not decode; null when none can be told. */
    private static String malformedParameter(String query) {
        if (query == null) {
            return null;
        }
        for (String pair : query.split("&")) {
            try {
                URLDecoder.decode(pair, StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                int equals = pair.indexOf('=');
                String name = equals < 0 ? pair : pair.substring(0, equals);
                try {
                    return URLDecoder.decode(name, StandardCharsets.UTF_8);
                } catch (IllegalArgumentException undecodable) {
                    return null; // the name itself is broken: there is no name to give
                }
            }
        }
        return null;
    }

    private static QueryParams of(MultiMap params) {
        Map<String, String> first = new LinkedHashMap<>();
        for (String name : params.names()) {
            first.put(name, params.get(name));
        }
        return new QueryParams(first);
    }

    /** The parameter's value as sent, an empty one included. */
    public Optional<String> raw(String name) {
        return Optional.ofNullable(values.get(name));
    }

    /** The parameter's value; an empty one counts as absent, as {@code ?team_id=} means no filter. */
    public Optional<String> text(String name) {
        return Optional.ofNullable(values.get(name)).filter(value -> !value.isEmpty());
    }

    /** A whole number from {@code min} to {@code max}, or {@code otherwise} when absent. */
    public int number(String name, int otherwise, int min, int max) {
        Optional<String> text = text(name);
        if (text.isEmpty()) {
            return otherwise;
        }
        int value;
        try {
            value = Integer.parseInt(text.get().strip());
        } catch (NumberFormatException e) {
            throw invalid(name, text.get(), "a whole number from " + min + " to " + max);
        }
        if (value < min || value > max) {
            throw invalid(name, text.get(), "a whole number from " + min + " to " + max);
        }
        return value;
    }

    /** {@code true} or {@code false} (any case), or {@code otherwise} when absent. */
    public boolean flag(String name, boolean otherwise) {
        Optional<String> text = text(name);
        if (text.isEmpty()) {
            return otherwise;
        }
        return switch (text.get().strip().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw invalid(name, text.get(), "true or false");
        };
    }

    private static ApiError invalid(String name, String value, String expected) {
        String shown = value.length() <= 60 ? value : value.substring(0, 60) + "...";
        return ApiError.invalidRequest("Invalid '" + name + "': \"" + shown + "\" (expected: " + expected + ").", name,
                "invalid_value");
    }
}
