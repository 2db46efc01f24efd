package dev.sluice.vendors.mock;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The OpenAI mock's image generations, speech, transcriptions, translations and moderations,
 * and Cohere's rerank. The order, as for chat: read the body (a JSON object, or for audio
 * a multipart form with a {@code file}) → record the call → refuse a body without the fields
 * the call needs → raise the mode's error, if any → answer, at once or late, or never.
 * {@code cut} drops the connection unanswered.
 */
final class MockMediaApi {
    private final Vertx vertx;
    private final MockOptions options;
    private final MockLedger ledger;
    private final MockErrors errors;
    private final MockFaults faults;
    private final MockMediaReplies replies;

    MockMediaApi(Vertx vertx, MockOptions options, MockLedger ledger, MockErrors errors, MockFaults faults, MockMediaReplies replies) {
        this.vertx = vertx;
        this.options = options;
        this.ledger = ledger;
        this.errors = errors;
        this.faults = faults;
        this.replies = replies;
    }

    void serve(HttpServerRequest request, MockRoute route, MockMode mode) {
        if (route.kind() == MockRoute.Kind.TRANSCRIPTION || route.kind() == MockRoute.Kind.TRANSLATION) {
            serveForm(request, route, mode);
            return;
        }
        request.body().onSuccess(raw -> {
            Optional<JsonNode> body = ledger.recordCall(raw, request.headers());
            if (body.isEmpty() || !body.get().isObject()) {
                MockResponses.error(request.response(), errors.standing().badJson());
                return;
            }
            answer(request, route, mode, (ObjectNode) body.get(), null);
        });
    }

    /** A multipart form: its text fields are the call's body, and its {@code file} what is heard. */
    private void serveForm(HttpServerRequest request, MockRoute route, MockMode mode) {
        Map<String, MockMediaReplies.Upload> files = new ConcurrentHashMap<>();
        request.setExpectMultipart(true);
        request.uploadHandler(upload -> {
            Buffer content = Buffer.buffer();
            upload.handler(content::appendBuffer);
            upload.endHandler(v -> files.put(upload.name(), new MockMediaReplies.Upload(upload.filename(), content)));
        });
        request.endHandler(v -> {
            ObjectNode fields = JsonNodeFactory.instance.objectNode();
            request.formAttributes().forEach(field -> fields.put(field.getKey(), field.getValue()));
            MockMediaReplies.Upload file = files.get("file");
            if (file != null) {
                fields.put("file", file.filename()).put("file_bytes", file.content().length());
            }
            ledger.recordCall(fields, request.headers());
            answer(request, route, mode, fields, file);
        });
    }

    private void answer(HttpServerRequest request, MockRoute route, MockMode mode, ObjectNode body,
            MockMediaReplies.Upload file) {
        if (MockResponses.errorIfAny(request.response(), replies.refusal(route.kind(), body, file))) {
            return;
        }
        String model = route.deployment() != null ? route.deployment() : body.path("model").asText(MockCall.UNNAMED_MODEL);
        String text = MockMediaReplies.prompt(route.kind(), body);
        MockCall call = new MockCall(route.kind(), model, false, false, List.of(text), text, text.length(), null, null);
        if (MockResponses.errorIfAny(request.response(), faults.errorFor(mode, call, request.headers()))) {
            return;
        }
        switch (mode) {
            case HANG -> exchange(request);
            case CUT -> exchange(request).cut();
            case SLOW -> {
                MockExchange exchange = exchange(request);
                exchange.after(options.delay().toMillis(), () -> write(request, replies.answer(route.kind(), model, body, file)));
            }
            default -> write(request, replies.answer(route.kind(), model, body, file));
        }
    }

    private static void write(HttpServerRequest request, MockMediaReplies.Reply reply) {
        request.response().putHeader("Content-Type", reply.contentType()).end(reply.body());
    }

    private MockExchange exchange(HttpServerRequest request) {
        return new MockExchange(vertx, request, ledger::recordClientGone);
    }
}
