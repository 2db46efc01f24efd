package dev.sluice.model;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A call the caller sent as a {@code multipart/form-data} body (an audio file to transcribe):
 * its parts as they arrived, to be sent on whole with one field's value replaced (the
 * deployment's own model name in {@code model}). The text fields are also read into the
 * call's JSON view ({@link ModelRequest#body}) for the gateway's rules.
 *
 * @param boundary the boundary the parts are written between, as the caller chose it
 * @param parts    in the order sent
 */
public record FormBody(String boundary, List<Part> parts) {

    /**
     * One part of the form.
     *
     * @param name     the field's name, from its {@code Content-Disposition}
     * @param filename the file's name, for a file part
     * @param head     the part's header lines as sent, without the blank line that ends them
     * @param content  the part's bytes; read, never changed
     */
    public record Part(String name, Optional<String> filename, byte[] head, byte[] content) {
        public Part {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(filename, "filename");
        }

        /** The part's content read as UTF-8 text. */
        public String text() {
            return new String(content, StandardCharsets.UTF_8);
        }
    }

    public FormBody {
        parts = List.copyOf(parts);
    }

    /** The {@code Content-Type} the body goes with. */
    public String contentType() {
        return "multipart/form-data; boundary=" + boundary;
    }

    /** The first part named {@code name}, if any. */
    public Optional<Part> part(String name) {
        return parts.stream().filter(p -> p.name().equals(name)).findFirst();
    }

    /** The body with the text of every part named {@code name} replaced by {@code value}; each other part as it was. */
    public byte[] withField(String name, String value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] delimiter = ("--" + boundary + "\r\n").getBytes(StandardCharsets.ISO_8859_1);
        byte[] crlf = {'\r', '\n'};
        for (Part part : parts) {
            out.writeBytes(delimiter);
            out.writeBytes(part.head());
            out.writeBytes(crlf);
            out.writeBytes(crlf);
            out.writeBytes(part.name().equals(name) ? value.getBytes(StandardCharsets.UTF_8) : part.content());
            out.writeBytes(crlf);
        }
        out.writeBytes(("--" + boundary + "--\r\n").getBytes(StandardCharsets.ISO_8859_1));
        return out.toByteArray();
    }
}
