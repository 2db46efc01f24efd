package dev.sluice.call.cache;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.model.GatewayFields;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The key of a request's answer in the cache: a SHA-256 of everything that shapes the answer
 * the caller gets, in hex, after the namespace and a colon when there is one (LiteLLM's
 * {@code namespace:hash}).
 *
 * <p>What shapes it: the entry API (a chat completion and an embedding never share an entry,
 * nor do OpenAI's and another API's forms of one answer), the model group, the caller's headers
 * addressed to a vendor ({@code anthropic-beta}: they change what a translated call asks), and
 * every field of the body but those that never reach a model: the gateway's own
 * ({@link GatewayFields}: fallbacks, retries, timeouts, tags), {@code cache} itself,
 * {@code metadata} and {@code user} (who asks, not what is asked). The guardrails a request
 * names are in it, though they never reach a model: an answer given without a guardrail must not
 * answer a request that asks for it, as a hit is not checked again. {@code stream} and {@code stream_options} are in it, since a
 * stream and a whole answer are stored as the caller got them. The caller's key and the
 * request's id are not: callers asking the same thing share the answer.
 *
 * <p>The body is hashed in a canonical form, so the order of its fields and the way a number
 * is written ({@code 1}, {@code 1.0}) do not split entries: objects by sorted field name, every
 * value tagged with its type and every string with its length, so no two bodies read alike.
 */
public final class CacheKey {
    /** Changes when what is hashed, or how entries are stored, changes: old entries are then missed. */
    private static final byte FORMAT = 2;
    /** A gateway field that is hashed all the same. */
    private static final String GUARDRAILS = "guardrails";
    private static final Set<String> NOT_HASHED = Set.of("metadata", "user", "model");

    private CacheKey() {}

    /**
     * @param entryApi  the route the call came in through, e.g. {@code chat_completions}
     * @param group     the model group it names
     * @param body      the request body as the caller wrote it
     * @param vendorHeaders the caller's headers addressed to a vendor
     * @param namespace the namespace the key is under, if any
     */
    public static String of(String entryApi, String group, JsonNode body, Map<String, String> vendorHeaders,
            Optional<String> namespace) {
        MessageDigest digest = sha256();
        digest.update(FORMAT);
        text(digest, entryApi);
        text(digest, group);
        List<String> headers = new ArrayList<>(vendorHeaders.keySet());
        Collections.sort(headers);
        count(digest, headers.size());
        for (String header : headers) {
            text(digest, header);
            text(digest, vendorHeaders.get(header));
        }
        List<String> names = new ArrayList<>(body.size());
        body.fieldNames().forEachRemaining(name -> {
            if (!NOT_HASHED.contains(name) && (!GatewayFields.NAMES.contains(name) || name.equals(GUARDRAILS))) {
                names.add(name);
            }
        });
        Collections.sort(names);
        for (String name : names) {
            text(digest, name);
            value(digest, body.get(name));
        }
        String hash = HexFormat.of().formatHex(digest.digest());
        return namespace.map(ns -> ns + ":" + hash).orElse(hash);
    }

    private static void value(MessageDigest digest, JsonNode node) {
        if (node.isObject()) {
            List<String> names = new ArrayList<>(node.size());
            node.fieldNames().forEachRemaining(names::add);
            Collections.sort(names);
            digest.update((byte) 'o');
            count(digest, names.size());
            for (String name : names) {
                text(digest, name);
                value(digest, node.get(name));
            }
        } else if (node.isArray()) {
            digest.update((byte) 'a');
            count(digest, node.size());
            node.forEach(item -> value(digest, item));
        } else if (node.isTextual()) {
            digest.update((byte) 's');
            text(digest, node.textValue());
        } else if (node.isFloatingPointNumber() && !Double.isFinite(node.doubleValue())) {
            // 1e400 reads as an infinite double, which has no decimal value.
            digest.update((byte) 'i');
            text(digest, node.asText());
        } else if (node.isNumber()) {
            digest.update((byte) 'n');
            text(digest, node.decimalValue().stripTrailingZeros().toPlainString());
        } else if (node.isBoolean()) {
            digest.update((byte) (node.booleanValue() ? 't' : 'f'));
        } else {
            digest.update((byte) 'z');
        }
    }

    private static void text(MessageDigest digest, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        count(digest, bytes.length);
        digest.update(bytes);
    }

    private static void count(MessageDigest digest, int count) {
        digest.update(ByteBuffer.allocate(4).putInt(count).array());
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JVM has no SHA-256", e);
        }
    }
}
