package dev.sluice.vendors.mock;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The answers of the mock's image, audio, moderation and rerank calls, in the shapes of
 * OpenAI's API reference (and Cohere's, for rerank), made up from the request so a test can
 * tell them apart: an image's {@code revised_prompt} is the prompt, speech is the input's
 * bytes behind an {@code ID3} mark, a transcription tells the file's name and size (its
 * {@code duration} is the size as 16 kHz 16-bit mono audio), a moderation flags the
 * trigger word, and rerank scores each document by the query words it holds.
 */
final class MockMediaReplies {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    /** The moderation categories OpenAI's answers list, each with its score and the inputs it applies to. */
    private static final List<String> CATEGORIES = List.of("harassment", "harassment/threatening", "hate", "hate/threatening",
            "illicit", "illicit/violent", "self-harm", "self-harm/instructions", "self-harm/intent", "sexual", "sexual/minors",
            "violence", "violence/graphic");
    private static final Map<String, String> AUDIO_TYPES = Map.of("mp3", "audio/mpeg", "opus", "audio/opus", "aac", "audio/aac",
            "flac", "audio/flac", "wav", "audio/wav", "pcm", "audio/pcm");
    private static final Set<String> TEXT_FORMATS = Set.of("text", "srt", "vtt");
    /** 16 kHz, 16-bit, mono: the bytes of one second of audio. */
    private static final double BYTES_PER_SECOND = 32_000;
    /** A 1x1 transparent PNG: what every {@code b64_json} image is. */
    private static final String PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

    /** An uploaded file: its name as the form gave it, and its bytes. */
    record Upload(String filename, Buffer content) {}

    /** An answer: its body and its type. */
    record Reply(Buffer body, String contentType) {}

    private final MockOptions options;
    private final Clock clock;
    private final AtomicLong ids = new AtomicLong();
    private final MockErrors errors;

    MockMediaReplies(MockOptions options, Clock clock, MockErrors errors) {
        this.options = options;
        this.clock = clock;
        this.errors = errors;
    }

    /** The text a call's checks read (the trigger word, the prompt's size). */
    static String prompt(MockRoute.Kind kind, ObjectNode body) {
        return switch (kind) {
            case IMAGES -> body.path("prompt").asText("");
            case RERANK -> body.path("query").asText("");
            case MODERATION -> body.path("input").isArray() ? body.path("input").toString() : body.path("input").asText("");
            case TRANSCRIPTION, TRANSLATION -> body.path("prompt").asText("");
            default -> body.path("input").asText("");
        };
    }

    /** A body without what its call needs, refused as OpenAI refuses it. */
    Optional<MockError> refusal(MockRoute.Kind kind, ObjectNode body, Upload file) {
        String missing = switch (kind) {
            case IMAGES -> body.path("prompt").isTextual() ? null : "prompt";
            case SPEECH -> body.path("input").isTextual() ? null : "input";
            case MODERATION -> body.path("input").isTextual() || body.path("input").isArray() ? null : "input";
            case RERANK -> !body.path("query").isTextual() ? "query" : body.path("documents").isArray() ? null : "documents";
            case TRANSCRIPTION, TRANSLATION -> file == null ? "file" : body.path("model").isTextual() ? null : "model";
            default -> null;
        };
        return missing == null ? Optional.empty() : Optional.of(errors.invalidType(missing, "a value (it is required)"));
    }

    Reply answer(MockRoute.Kind kind, String model, ObjectNode body, Upload file) {
        return switch (kind) {
            case IMAGES -> json(images(body));
            case SPEECH -> speech(body);
            case TRANSCRIPTION, TRANSLATION -> heard(kind, body, file);
            case MODERATION -> json(moderation(model, body.path("input")));
            case RERANK -> json(rerank(body));
            default -> throw new IllegalArgumentException("not a media call: " + kind);
        };
    }

    private ObjectNode images(ObjectNode body) {
        ObjectNode answer = NODES.objectNode().put("created", clock.instant().getEpochSecond());
        ArrayNode data = answer.putArray("data");
        int n = Math.max(1, body.path("n").asInt(1));
        boolean base64 = "b64_json".equals(body.path("response_format").asText());
        for (int i = 0; i < n; i++) {
            ObjectNode image = data.addObject();
            if (base64) {
                image.put("b64_json", PIXEL);
            } else {
                image.put("url", "https://mock.invalid/" + options.name() + "/images/" + ids.incrementAndGet() + ".png");
            }
            image.put("revised_prompt", body.path("prompt").asText());
        }
        return answer;
    }

    private Reply speech(ObjectNode body) {
        String format = body.path("response_format").asText("mp3");
        byte[] said = body.path("input").asText().getBytes(StandardCharsets.UTF_8);
        Buffer audio = Buffer.buffer("ID3").appendBytes(said);
        return new Reply(audio, AUDIO_TYPES.getOrDefault(format, "audio/mpeg"));
    }

    private Reply heard(MockRoute.Kind kind, ObjectNode body, Upload file) {
        String text = "[" + options.name() + "] heard " + file.content().length() + " bytes of " + file.filename();
        String format = body.path("response_format").asText("json");
        if (TEXT_FORMATS.contains(format)) {
            return new Reply(Buffer.buffer(text + "\n"), "text/plain; charset=utf-8");
        }
        ObjectNode answer = NODES.objectNode();
        if (format.equals("verbose_json")) {
            double seconds = file.content().length() / BYTES_PER_SECOND;
            answer.put("task", kind == MockRoute.Kind.TRANSLATION ? "translate" : "transcribe")
                    .put("language", kind == MockRoute.Kind.TRANSLATION ? "english" : body.path("language").asText("english"))
                    .put("duration", seconds)
                    .put("text", text);
            answer.putArray("segments").addObject().put("id", 0).put("seek", 0).put("start", 0.0).put("end", seconds)
                    .put("text", text).put("avg_logprob", -0.1).put("compression_ratio", 1.0).put("no_speech_prob", 0.0)
                    .put("temperature", 0.0).putArray("tokens").add(1);
            return json(answer);
        }
        return json(answer.put("text", text));
    }

    private ObjectNode moderation(String model, JsonNode input) {
        List<String> texts = new ArrayList<>();
        if (input.isArray()) {
            input.forEach(item -> texts.add(item.isTextual() ? item.textValue() : item.path("text").asText("")));
        } else {
            texts.add(input.asText());
        }
        ObjectNode answer = NODES.objectNode().put("id", "modr-mock-" + ids.incrementAndGet()).put("model", model);
        ArrayNode results = answer.putArray("results");
        String trigger = options.triggerWord().toLowerCase(Locale.ROOT);
        for (String text : texts) {
            boolean flagged = text.toLowerCase(Locale.ROOT).contains(trigger);
            ObjectNode result = results.addObject().put("flagged", flagged);
            ObjectNode categories = result.putObject("categories");
            ObjectNode scores = result.putObject("category_scores");
            ObjectNode applied = result.putObject("category_applied_input_types");
            for (String category : CATEGORIES) {
                boolean hit = flagged && category.equals("violence");
                categories.put(category, hit);
                scores.put(category, hit ? 0.9 : 0.0001);
                applied.putArray(category).add("text");
            }
        }
        return answer;
    }

    private ObjectNode rerank(ObjectNode body) {
        Set<String> words = Set.of(body.path("query").asText().toLowerCase(Locale.ROOT).split("\\W+"));
        JsonNode documents = body.path("documents");
        record Scored(int index, double score, JsonNode document) {}
        List<Scored> scored = new ArrayList<>();
        for (int i = 0; i < documents.size(); i++) {
            JsonNode document = documents.get(i);
            String text = document.isTextual() ? document.textValue() : document.path("text").asText("");
            String[] docWords = text.toLowerCase(Locale.ROOT).split("\\W+");
            long hits = java.util.Arrays.stream(docWords).filter(words::contains).count();
            scored.add(new Scored(i, (hits + 1.0) / (docWords.length + 2.0), document));
        }
        scored.sort(Comparator.comparingDouble(Scored::score).reversed().thenComparingInt(Scored::index));
        int topN = body.path("top_n").canConvertToInt() ? Math.min(body.path("top_n").intValue(), scored.size()) : scored.size();
        boolean returnDocuments = body.path("return_documents").asBoolean(false);
        ObjectNode answer = NODES.objectNode().put("id", "rerank-mock-" + ids.incrementAndGet());
        ArrayNode results = answer.putArray("results");
        for (Scored s : scored.subList(0, Math.max(0, topN))) {
            ObjectNode result = results.addObject().put("index", s.index()).put("relevance_score", s.score());
            if (returnDocuments) {
                result.set("document", s.document().isTextual() ? NODES.objectNode().put("text", s.document().textValue())
                        : s.document());
            }
        }
        ObjectNode meta = answer.putObject("meta");
        meta.putObject("api_version").put("version", "1");
        meta.putObject("billed_units").put("search_units", 1);
        return answer;
    }

    private static Reply json(ObjectNode answer) {
        return new Reply(MockJson.buffer(answer), "application/json");
    }
}
