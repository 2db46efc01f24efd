package dev.sluice.vendors.gemini.wire;

import static dev.sluice.vendors.gemini.wire.GeminiRequests.NODES;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.model.ContentPart;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * An image as a Gemini part: inline data as {@code inlineData}, a URL as {@code fileData}
 * with its {@code fileUri}. Gemini reads a file's type from {@code mimeType}, which is guessed
 * from the URL's extension as LiteLLM does; when the extension says nothing the field is left
 * out and Gemini works it out. The caller's {@code detail} has no Gemini counterpart.
 */
final class GeminiImages {
    private static final Map<String, String> TYPES = Map.ofEntries(
            Map.entry("png", "image/png"),
            Map.entry("jpg", "image/jpeg"),
            Map.entry("jpeg", "image/jpeg"),
            Map.entry("gif", "image/gif"),
            Map.entry("webp", "image/webp"),
            Map.entry("heic", "image/heic"),
            Map.entry("heif", "image/heif"),
            Map.entry("pdf", "application/pdf"),
            Map.entry("mp4", "video/mp4"),
            Map.entry("mp3", "audio/mpeg"),
            Map.entry("wav", "audio/wav"),
            Map.entry("txt", "text/plain"));

    private GeminiImages() {}

    static ObjectNode encode(ContentPart.Image image) {
        ObjectNode part = NODES.objectNode();
        if (image.inline()) {
            part.putObject("inlineData").put("mimeType", image.mediaType()).put("data", image.data());
            return part;
        }
        // Gemini refuses a file without its type, and Sluice does not fetch a caller's URL to sniff one.
        String type = mimeTypeOf(image.url()).orElseThrow(() -> new IllegalArgumentException("image_url.url: " + image.url()
                + " (expected: a data URL, or a URL whose path ends in a type Gemini reads, such as .png, .jpg, .gif, .webp or .pdf)"));
        part.putObject("fileData").put("mimeType", type).put("fileUri", image.url());
        return part;
    }

    /** The type a URL's file extension names, ignoring any query or fragment. */
    static Optional<String> mimeTypeOf(String url) {
        String path = url;
        int cut = indexOfAny(path, '?', '#');
        if (cut >= 0) {
            path = path.substring(0, cut);
        }
        int slash = path.lastIndexOf('/');
        int dot = path.lastIndexOf('.');
        if (dot < 0 || dot < slash) {
            return Optional.empty();
        }
        return Optional.ofNullable(TYPES.get(path.substring(dot + 1).toLowerCase(Locale.ROOT)));
    }

    private static int indexOfAny(String text, char a, char b) {
        int first = text.indexOf(a);
        int second = text.indexOf(b);
        if (first < 0) {
            return second;
        }
        return second < 0 ? first : Math.min(first, second);
    }
}
