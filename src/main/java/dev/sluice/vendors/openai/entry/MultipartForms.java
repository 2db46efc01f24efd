package dev.sluice.vendors.openai.entry;

import dev.sluice.model.FormBody;
import dev.sluice.wire.ApiError;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a {@code multipart/form-data} body (RFC 7578) into its parts. The body has already
 * been read within the request's size limit; a body that is not such a form, or whose parts
 * are not framed as the boundary says, is a 400 naming what is wrong.
 */
final class MultipartForms {
    private static final Pattern BOUNDARY = Pattern.compile("(?i);\\s*boundary=(\"([^\"]+)\"|([^;\\s]+))");
    private static final Pattern NAME = Pattern.compile("(?i);\\s*name=\"([^\"]*)\"");
    private static final Pattern FILENAME = Pattern.compile("(?i);\\s*filename=\"([^\"]*)\"");
    private static final byte[] HEAD_END = {'\r', '\n', '\r', '\n'};

    private MultipartForms() {}

    /** The form in {@code body}, sent with {@code contentType}, for the route at {@code path}. */
    static FormBody parse(byte[] body, String contentType, String path) {
        if (contentType == null || !contentType.toLowerCase(Locale.ROOT).startsWith("multipart/form-data")) {
            throw ApiError.invalidRequest("Content-Type must be multipart/form-data for " + path + ", but got "
                    + (contentType == null ? "none" : "'" + contentType + "'") + ".", null, "invalid_content_type");
        }
        Matcher boundary = BOUNDARY.matcher(contentType);
        if (!boundary.find()) {
            throw malformed("its Content-Type names no boundary");
        }
        String mark = boundary.group(2) != null ? boundary.group(2) : boundary.group(3);
        byte[] delimiter = ("\r\n--" + mark).getBytes(StandardCharsets.ISO_8859_1);
        // The first delimiter may open the body, without the line break the others follow.
        int at = startsWith(body, 0, delimiter, 2) ? 0 : indexOf(body, delimiter, 0);
        if (at < 0) {
            throw malformed("it holds no part");
        }
        at += at == 0 && startsWith(body, 0, delimiter, 2) ? delimiter.length - 2 : delimiter.length;
        List<FormBody.Part> parts = new ArrayList<>();
        while (true) {
            if (at + 2 <= body.length && body[at] == '-' && body[at + 1] == '-') {
                return new FormBody(mark, parts);
            }
            if (at + 2 > body.length || body[at] != '\r' || body[at + 1] != '\n') {
                throw malformed("a boundary is not followed by a line break");
            }
            int headStart = at + 2;
            int headEnd = indexOf(body, HEAD_END, headStart);
            if (headEnd < 0) {
                throw malformed("a part's headers do not end");
            }
            int next = indexOf(body, delimiter, headEnd + HEAD_END.length);
            if (next < 0) {
                throw malformed("it does not end with its closing boundary");
            }
            byte[] head = Arrays.copyOfRange(body, headStart, headEnd);
            parts.add(part(head, Arrays.copyOfRange(body, headEnd + HEAD_END.length, next)));
            at = next + delimiter.length;
        }
    }

    private static FormBody.Part part(byte[] head, byte[] content) {
        String headers = new String(head, StandardCharsets.UTF_8);
        for (String line : headers.split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-disposition:")) {
                Matcher name = NAME.matcher(line);
                if (!name.find()) {
                    throw malformed("a part's Content-Disposition names no field");
                }
                Matcher filename = FILENAME.matcher(line);
                return new FormBody.Part(name.group(1), filename.find() ? Optional.of(filename.group(1)) : Optional.empty(), head,
                        content);
            }
        }
        throw malformed("a part has no Content-Disposition");
    }

    private static ApiError malformed(String why) {
        return ApiError.invalidRequest("Malformed multipart/form-data body: " + why + ".", null, "invalid_multipart");
    }

    private static boolean startsWith(byte[] body, int at, byte[] prefix, int skip) {
        if (body.length - at < prefix.length - skip) {
            return false;
        }
        for (int i = skip; i < prefix.length; i++) {
            if (body[at + i - skip] != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    private static int indexOf(byte[] body, byte[] wanted, int from) {
        int last = body.length - wanted.length;
        for (int i = from; i <= last; i++) {
            if (body[i] == wanted[0] && startsWith(body, i, wanted, 0)) {
                return i;
            }
        }
        return -1;
    }
}
