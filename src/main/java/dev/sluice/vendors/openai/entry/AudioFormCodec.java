package dev.sluice.vendors.openai.entry;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.model.Dialect;
import dev.sluice.model.FormBody;
import dev.sluice.model.ModelRequest;
import dev.sluice.model.Operation;
import dev.sluice.vendors.entry.AbstractIngressCodec;
import dev.sluice.wire.ApiError;
import dev.sluice.wire.JsonReading;
import io.vertx.core.buffer.Buffer;
import java.util.Map;
import java.util.Optional;

/**
 * OpenAI's audio transcriptions and translations: a {@code multipart/form-data} body holding
 * the audio {@code file} and text fields ({@code model}, {@code language},
 * {@code response_format}, ...). The form is sent on to the deployment as it came, with its
 * {@code model} replaced; its text fields are the call's JSON view, which the gateway's
 * rules read.
 */
public final class AudioFormCodec extends AbstractIngressCodec {
    public static final AudioFormCodec TRANSCRIPTIONS = new AudioFormCodec(Operation.AUDIO_TRANSCRIPTIONS, "audio_transcriptions");
    public static final AudioFormCodec TRANSLATIONS = new AudioFormCodec(Operation.AUDIO_TRANSLATIONS, "audio_translations");

    private AudioFormCodec(Operation operation, String name) {
        super(name, operation, Dialect.OPENAI);
    }

    @Override
    public ModelRequest decode(Buffer body, JsonReading json) {
        return decode(body, null, json);
    }

    @Override
    public ModelRequest decode(Buffer bytes, String contentType, JsonReading json) {
        FormBody form = MultipartForms.parse(bytes.getBytes(), contentType, "/v1" + operation().path());
        ObjectNode fields = JsonNodeFactory.instance.objectNode();
        for (FormBody.Part part : form.parts()) {
            if (part.filename().isEmpty() && !fields.has(part.name())) {
                fields.put(part.name(), part.text());
            }
        }
        Optional<FormBody.Part> file = form.part("file");
        if (file.isEmpty() || file.get().filename().isEmpty()) {
            throw OpenAiFields.missing("file");
        }
        if (file.get().content().length == 0) {
            throw ApiError.invalidRequest("Invalid 'file': the file is empty. Expected an audio file.", "file", "invalid_value");
        }
        String group = OpenAiFields.requireString(fields, "model");
        return new ModelRequest(operation(), Dialect.OPENAI, fields, group, false, Map.of(), fields, Optional.of(form));
    }
}
