package dev.sluice.catalog;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Keys for the cacheable prefix of a chat request, so that a conversation keeps going to the
 * deployment that holds its prefix in the provider's prompt cache while that deployment is
 * healthy ({@code optional_pre_call_checks: ["prompt_caching"]}).
 *
 * <h2>Design notes</h2>
 * A key is the hex SHA-256 of the model group's name, the request's tools, functions and
 * top-level {@code system}, then the messages of the prefix, each written as
 * {@link CanonicalJson} on its own line. Keys of longer prefixes of one request extend the
 * same digest, so one pass over the messages yields them all.
 *
 * <p>A provider caches what it was sent; the next request finds it only if it starts with
 * the same tokens. Two kinds of prefix recur:
 * <ul>
 *   <li><b>Everything before the last {@code assistant} message.</b> A client continues a
 *       conversation by sending back every earlier message, the model's answer and a new
 *       message, so this is exactly the previous request, which the deployment that served
 *       it has cached. In a few-shot prompt it is the examples, which requests repeat.
 *   <li><b>A shared prefix.</b> Requests that open with the same long instructions or
 *       document. For OpenAI-family automatic caching that is every message before the last
 *       {@code user} message. For a body that marks its cache breakpoints
 *       ({@code cache_control} on a content block, a message, a tool or a top-level system
 *       block: Anthropic's form), it is the messages up to and including a marked block: the
 *       provider caches nothing else.
 * </ul>
 * {@link CacheKeys#lookup} is the first kind when the request has an assistant message, else
 * the shared prefix (for a marked body the last mark before the last user message: a mark in
 * the newest message covers text never sent before). {@link CacheKeys#pin} is what a
 * deployment holds once it has served the request: the whole prompt (its next turn's
 * lookup), the first kind, and the shared prefix (every marked prefix, for a marked body).
 *
 * <p>A prefix counts only from {@value #MIN_CACHEABLE_TOKENS} tokens, the least OpenAI and
 * Anthropic (Sonnet, Opus) cache; shorter ones get no key, so short prompts are balanced
 * as usual. Token counts stop once a prefix reaches that size, so a long prompt is not
 * counted twice. Completions and embeddings bodies get no keys.
 */
public final class CachePrefixes {
    /** The shortest prefix the providers cache: OpenAI's threshold, Anthropic's for Sonnet and Opus. */
    public static final int MIN_CACHEABLE_TOKENS = 1024;
    /** How long a provider keeps a cached prefix unused: Anthropic's default, OpenAI's least. */
    public static final Duration CACHE_LIFETIME = Duration.ofMinutes(5);
    /** Anthropic's extended lifetime, asked for with {@code "cache_control": {"type": "ephemeral", "ttl": "1h"}}. */
    public static final Duration EXTENDED_CACHE_LIFETIME = Duration.ofHours(1);

    private static final HexFormat HEX = HexFormat.of();

    private final PromptTokens tokens;

    public CachePrefixes(PromptTokens tokens) {
        this.tokens = tokens;
    }

    /**
     * The keys of one request, and how long a pin made for them lasts.
     *
     * @param lookup the key whose pin, if any, says which deployment to prefer
     * @param pin    the keys to pin to the deployment that serves the request
     * @param ttl    how long the provider keeps the prefix after this request
     */
    public record CacheKeys(Optional<String> lookup, List<String> pin, Duration ttl) {
        public static final CacheKeys NONE = new CacheKeys(Optional.empty(), List.of(), CACHE_LIFETIME);

        public CacheKeys {
            pin = List.copyOf(pin);
        }
    }

    /** The key to look a pin up with ({@link CacheKeys#lookup}), for {@code RequestFacts.cachePrefix}. */
    public Optional<String> keyOf(String group, ObjectNode body, int promptTokens, TokenEncoding encoding) {
        return keys(group, body, promptTokens, encoding).lookup();
    }

    /**
     * @param promptTokens the whole prompt's size from {@link PromptTokens#count}; below
     *                     {@value #MIN_CACHEABLE_TOKENS} no prefix can qualify and nothing is hashed
     * @param encoding     the encoding {@code promptTokens} was counted with
     */
    public CacheKeys keys(String group, ObjectNode body, int promptTokens, TokenEncoding encoding) {
        JsonNode messages = body.path("messages");
        if (promptTokens < MIN_CACHEABLE_TOKENS || !messages.isArray() || messages.isEmpty()) {
            return CacheKeys.NONE;
        }
        Prompt prompt = new Prompt(body, messages, encoding);
        List<Cut> marks = prompt.marks();
        int lastUser = prompt.lastIndexOf("user");
        int lastAssistant = prompt.lastIndexOf("assistant");
        Optional<Cut> previousTurn = lastAssistant > 0 ? Optional.of(Cut.before(lastAssistant)) : Optional.empty();
        List<Cut> shared = !marks.isEmpty() ? marks
                : lastUser >= 0 ? List.of(Cut.before(lastUser)) : List.of();

        Optional<Cut> lookup;
        if (previousTurn.isPresent()) {
            lookup = previousTurn.filter(prompt::cacheable);
        } else if (marks.isEmpty()) {
            lookup = shared.stream().filter(prompt::cacheable).findFirst();
        } else {
            lookup = marks.stream().filter(mark -> mark.endsBefore(lastUser) && prompt.cacheable(mark)).reduce((a, b) -> b);
        }
        List<Cut> pins = new ArrayList<>();
        pins.add(Cut.before(messages.size()));
        previousTurn.ifPresent(pins::add);
        pins.addAll(shared);
        pins.removeIf(cut -> !prompt.cacheable(cut));

        List<Cut> cuts = new ArrayList<>();
        lookup.ifPresent(cuts::add);
        cuts.addAll(pins);
        List<String> hashes = prompt.hashes(group, cuts);
        Optional<String> lookupKey = lookup.map(cut -> hashes.getFirst());
        List<String> pinKeys = hashes.subList(lookup.isPresent() ? 1 : 0, hashes.size());
        return new CacheKeys(lookupKey, List.copyOf(new LinkedHashSet<>(pinKeys)), prompt.lifetime());
    }

    /**
     * Where a prefix ends: before message {@code message} (0: only tools, functions and
     * system) when {@code part} is {@link #WHOLE}; else inside message {@code message},
     * after its content part {@code part}.
     */
    record Cut(int message, int part) implements Comparable<Cut> {
        static final int WHOLE = -1;

        static Cut before(int message) {
            return new Cut(message, WHOLE);
        }

        /** The messages wholly inside the prefix. */
        int wholeMessages() {
            return message;
        }

        /** Whether the prefix holds nothing of message {@code index} or later. */
        boolean endsBefore(int index) {
            return part == WHOLE ? message <= index : message < index;
        }

        @Override
        public int compareTo(Cut other) {
            int byMessage = Integer.compare(message, other.message);
            return byMessage != 0 ? byMessage : Integer.compare(part, other.part);
        }
    }

    /** One request's messages, with the sizes of its prefixes counted only as far as needed. */
    private final class Prompt {
        private final ObjectNode body;
        private final JsonNode messages;
        private final TokenEncoding encoding;
        /**
         * {@code before[k]}: the tokens of tools, functions, system and messages [0, k),
         * filled for k up to {@code filled}, and no further once one reaches the threshold.
         */
        private final long[] before;
        private int filled = -1;

        Prompt(ObjectNode body, JsonNode messages, TokenEncoding encoding) {
            this.body = body;
            this.messages = messages;
            this.encoding = encoding;
            this.before = new long[messages.size() + 1];
        }

        int lastIndexOf(String role) {
            for (int i = messages.size() - 1; i >= 0; i--) {
                if (role.equals(messages.get(i).path("role").asText())) {
                    return i;
                }
            }
            return -1;
        }

        /** Every {@code cache_control} mark, in prompt order. */
        List<Cut> marks() {
            List<Cut> marks = new ArrayList<>();
            if (marked(body.path("tools")) || marked(body.path("functions")) || marked(body.path("system"))) {
                marks.add(Cut.before(0));
            }
            for (int i = 0; i < messages.size(); i++) {
                JsonNode message = messages.get(i);
                JsonNode content = message.path("content");
                int lastMarkedPart = -1;
                if (content.isArray()) {
                    for (int p = 0; p < content.size(); p++) {
                        if (content.get(p).has(CanonicalJson.CACHE_CONTROL)) {
                            lastMarkedPart = p;
                        }
                    }
                }
                if (message.has(CanonicalJson.CACHE_CONTROL)) {
                    marks.add(Cut.before(i + 1));
                } else if (lastMarkedPart >= 0) {
                    marks.add(lastMarkedPart == content.size() - 1 ? Cut.before(i + 1) : new Cut(i, lastMarkedPart));
                }
            }
            return marks;
        }

        private static boolean marked(JsonNode node) {
            if (node.isArray()) {
                for (JsonNode item : node) {
                    if (item.has(CanonicalJson.CACHE_CONTROL)) {
                        return true;
                    }
                }
            }
            return false;
        }

        /** The longest lifetime any mark asks for. */
        Duration lifetime() {
            return body.findValues(CanonicalJson.CACHE_CONTROL).stream()
                    .anyMatch(mark -> "1h".equals(mark.path("ttl").asText())) ? EXTENDED_CACHE_LIFETIME : CACHE_LIFETIME;
        }

        /** Whether the prefix ending at {@code cut} is at least {@value #MIN_CACHEABLE_TOKENS} tokens. */
        boolean cacheable(Cut cut) {
            long whole = tokensBefore(cut.wholeMessages());
            if (whole >= MIN_CACHEABLE_TOKENS) {
                return true;
            }
            return cut.part() != Cut.WHOLE
                    && whole + tokens.message(truncated(cut), encoding) >= MIN_CACHEABLE_TOKENS;
        }

        /**
         * The tokens before message {@code index}: exact while below the threshold; once a
         * shorter prefix has reached it, that prefix's count (longer ones are at least as
         * long), so a long prompt is counted only up to its first
         * {@value #MIN_CACHEABLE_TOKENS} tokens.
         */
        private long tokensBefore(int index) {
            if (filled < 0) {
                before[0] = tokens.beforeMessages(body, encoding);
                filled = 0;
            }
            while (filled < index && before[filled] < MIN_CACHEABLE_TOKENS) {
                before[filled + 1] = before[filled] + tokens.message(messages.get(filled), encoding);
                filled++;
            }
            return before[Math.min(index, filled)];
        }

        /** Message {@code cut.message()} with its content cut after part {@code cut.part()}. */
        private ObjectNode truncated(Cut cut) {
            ObjectNode message = ((ObjectNode) messages.get(cut.message())).deepCopy();
            ArrayNode content = (ArrayNode) message.get("content");
            ArrayNode kept = message.putArray("content");
            for (int p = 0; p <= cut.part(); p++) {
                kept.add(content.get(p));
            }
            return message;
        }

        /** The key of each cut, in the order given, from one pass over the messages. */
        List<String> hashes(String group, List<Cut> cuts) {
            List<Cut> sorted = new ArrayList<>(new LinkedHashSet<>(cuts));
            sorted.sort(null);
            Map<Cut, String> byCut = new HashMap<>();
            try {
                MessageDigest digest = MessageDigest.getInstance("SHA-256");
                JsonGenerator out = Json.MAPPER.getFactory().createGenerator(new DigestStream(digest));
                ObjectNode head = Json.MAPPER.createObjectNode();
                head.put("group", group);
                for (String field : List.of("functions", "system", "tools")) {
                    head.set(field, body.has(field) ? body.get(field) : NullNode.getInstance());
                }
                line(head, out);
                int written = 0;
                for (Cut cut : sorted) {
                    for (; written < cut.wholeMessages(); written++) {
                        line(messages.get(written), out);
                    }
                    out.flush();
                    if (cut.part() == Cut.WHOLE) {
                        byCut.put(cut, HEX.formatHex(((MessageDigest) digest.clone()).digest()));
                    } else {
                        MessageDigest partial = (MessageDigest) digest.clone();
                        JsonGenerator rest = Json.MAPPER.getFactory().createGenerator(new DigestStream(partial));
                        line(truncated(cut), rest);
                        rest.flush();
                        byCut.put(cut, HEX.formatHex(partial.digest()));
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e); // nothing here writes anywhere but to the digest
            } catch (NoSuchAlgorithmException | CloneNotSupportedException e) {
                throw new IllegalStateException("SHA-256 is part of every JDK and its digests can be cloned", e);
            }
            return cuts.stream().map(byCut::get).toList();
        }

        private static void line(JsonNode node, JsonGenerator out) throws IOException {
            CanonicalJson.write(node, out);
            out.writeRaw('\n');
        }
    }

    /** Feeds what is written into a digest. */
    private static final class DigestStream extends OutputStream {
        private final MessageDigest digest;

        DigestStream(MessageDigest digest) {
            this.digest = digest;
        }

        @Override
        public void write(int b) {
            digest.update((byte) b);
        }

        @Override
        public void write(byte[] bytes, int offset, int length) {
            digest.update(bytes, offset, length);
        }
    }
}
