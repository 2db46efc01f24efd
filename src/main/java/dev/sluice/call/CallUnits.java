package dev.sluice.call;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.accounts.spend.BilledUnits;
import dev.sluice.model.Operation;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a call that is not billed by tokens used, read from its request and its answer:
 * <ul>
 *   <li>images: the images in the answer's {@code data} (else {@code n}, else 1), and their
 *       pixels by the request's {@code size} (OpenAI's default, 1024x1024, when it names none
 *       it can be read from);
 *   <li>speech: the characters of {@code input};
 *   <li>transcriptions and translations: the answer's {@code duration} in seconds, which
 *       only {@code response_format: verbose_json} reports: any other format bills 0 seconds,
 *       as the gateway does not decode the audio to measure it;
 *   <li>rerank: the answer's {@code meta.billed_units.search_units}, else one query.
 * </ul>
 * Moderations bill nothing.
 */
final class CallUnits {
    private static final Pattern SIZE = Pattern.compile("(\\d{1,5})x(\\d{1,5})");
    private static final long DEFAULT_PIXELS = 1024L * 1024L;

    private CallUnits() {}

    /** @param answer the answer's JSON, or null when it was audio or text */
    static BilledUnits of(Operation operation, ObjectNode request, ObjectNode answer) {
        return switch (operation) {
            case IMAGE_GENERATIONS -> images(request, answer);
            case AUDIO_SPEECH -> new BilledUnits(0, 0, characters(request.path("input").asText("")), 0, 0);
            case AUDIO_TRANSCRIPTIONS, AUDIO_TRANSLATIONS -> new BilledUnits(0, 0, 0, seconds(answer), 0);
            case RERANK -> new BilledUnits(0, 0, 0, 0, queries(answer));
            default -> BilledUnits.NONE;
        };
    }

    private static BilledUnits images(ObjectNode request, ObjectNode answer) {
        JsonNode data = answer == null ? null : answer.get("data");
        long images = data != null && data.isArray() ? data.size() : Math.max(1, request.path("n").asLong(1));
        Matcher size = SIZE.matcher(request.path("size").asText(""));
        long pixels = size.matches() ? Long.parseLong(size.group(1)) * Long.parseLong(size.group(2)) : DEFAULT_PIXELS;
        return new BilledUnits(images, images * pixels, 0, 0, 0);
    }

    private static long characters(String text) {
        return text.codePointCount(0, text.length());
    }

    private static double seconds(ObjectNode answer) {
        JsonNode duration = answer == null ? null : answer.get("duration");
        return duration != null && duration.isNumber() && duration.doubleValue() > 0 ? duration.doubleValue() : 0;
    }

    private static long queries(ObjectNode answer) {
        JsonNode units = answer == null ? null : answer.path("meta").path("billed_units").get("search_units");
        return units != null && units.canConvertToLong() && units.asLong() > 0 ? units.asLong() : 1;
    }
}
