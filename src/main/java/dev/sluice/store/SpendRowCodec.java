package dev.sluice.store;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One {@link SpendRow} in binary, big-endian: the body of a spend journal record and of each
 * row in a {@link SpendBlocks block} of the embedded store's spend log.
 *
 * <pre>
 * body  := version:int8 (1 to 4)  appendedAt:int64 (epoch ms)
 *          callId:str  keyHash:opt  teamId:opt  userId:opt  modelGroup:str  deploymentId:opt
 *          promptTokens:int64  completionTokens:int64  totalTokens:int64
 *          costScale:int32  costUnscaled:bytes  status:int32  durationMs:int64
 *          startedAtSeconds:int64  startedAtNanos:int32
 *          cachedTokens:int64  tagCount:int32  tag:str ...        (from version 2)
 *          cacheHit:int8 (0 or 1)  cacheKey:opt                   (from version 3)
 *          endUser:opt                                         (from version 4)
 * str   := n:int32  n bytes of UTF-8          opt := -1 (absent) | str
 * bytes := n:int32  n bytes (a two's-complement big integer)
 * </pre>
 *
 * Binary rather than JSON because a row is encoded on the caller's thread: no field names to
 * write, no numbers to format, and nothing to parse back but lengths. The cost goes as its
 * unscaled value and scale and the start time as seconds and nanoseconds, so both come back
 * exactly. Version 1 bodies (written before rows had cached tokens and tags) are read with
 * none of either, and version 1 and 2 bodies as calls the response cache did not answer.
 *
 * <p>A row the response cache had no part in is written as version 2, byte for byte what the
 * previous release wrote: that release, run again on the same journal or embedded store,
 * reads every row but those of cached calls.
 */
public final class SpendRowCodec {
    /** The newest version: bodies of every version from {@link #FIRST_VERSION} on are read. */
    public static final byte VERSION = 4;
    static final byte FIRST_VERSION = 1;
    /** The version that brought cached tokens and tags. */
    static final byte TAGS_SINCE = 2;
    /** The version that brought whether the response cache answered the call, and its key. */
    static final byte CACHE_SINCE = 3;
    /** The version that brought the customer a call was made for. */
    static final byte END_USER_SINCE = 4;
    /** The smallest body a row can have: every fixed field of version 1, empty strings, absent options. */
    public static final int MIN_BODY_BYTES = 1 + 8 + 4 + 4 * 3 + 4 + 4 + 8 * 3 + 4 + 4 + 4 + 8 + 8 + 4;
    /** What version 2 adds to a body besides its tags' bytes: the cached tokens and the tag count. */
    public static final int VERSION_2_FIELD_BYTES = 8 + 4;
    /** What version 3 adds besides its cache key's bytes: the hit flag and the key's length. */
    public static final int VERSION_3_FIELD_BYTES = 1 + 4;
    /** The largest body accepted: far past any real row, and a bound on a corrupt length. */
    public static final int MAX_BODY_BYTES = 1 << 20;

    private SpendRowCodec() {}

    /** A decoded body: the row and when it was appended to the journal. */
    public record Decoded(SpendRow row, long appendedAtMillis) {}

    /** A row's strings as bytes and its body's size, so the body can be written into a buffer of the right size. */
    public record Encoded(SpendRow row, byte[][] strings, byte[][] tags, byte[] unscaled, byte[] cacheKey,
            byte[] endUser, int bodyBytes) {
        /** The version the body is written in: the oldest that holds the row. */
        byte version() {
            return SpendRowCodec.version(row, cacheKey, endUser);
        }

        /** Puts the body at {@code out}'s position. */
        public void writeBody(ByteBuffer out, long appendedAtMillis) {
            out.put(version()).putLong(appendedAtMillis);
            for (byte[] string : strings) {
                putOptional(out, string);
            }
            out.putLong(row.tokens().promptTokens()).putLong(row.tokens().completionTokens()).putLong(row.tokens().totalTokens());
            out.putInt(row.cost().scale()).putInt(unscaled.length).put(unscaled);
            out.putInt(row.status()).putLong(row.durationMs());
            out.putLong(row.startedAt().getEpochSecond()).putInt(row.startedAt().getNano());
            out.putLong(row.tokens().cachedTokens()).putInt(tags.length);
            for (byte[] tag : tags) {
                out.putInt(tag.length).put(tag);
            }
            if (version() >= CACHE_SINCE) {
                out.put((byte) (row.cacheHit() ? 1 : 0));
                putOptional(out, cacheKey);
            }
            if (version() >= END_USER_SINCE) {
                putOptional(out, endUser);
            }
        }

        private static void putOptional(ByteBuffer out, byte[] string) {
            if (string == null) {
                out.putInt(-1);
            } else {
                out.putInt(string.length).put(string);
            }
        }
    }

    /**
     * The body's size for {@code row}, with its strings' bytes already made.
     *
     * @throws IllegalArgumentException when the body would pass {@link #MAX_BODY_BYTES}
     */
    public static Encoded prepare(SpendRow row) {
        byte[][] strings = {
            utf8(row.callId()), optional(row.accounts().keyHash()), optional(row.accounts().teamId()),
            optional(row.accounts().userId()),
            utf8(row.modelGroup()), optional(row.deploymentId())
        };
        byte[][] tags = new byte[row.tags().size()][];
        for (int i = 0; i < tags.length; i++) {
            tags[i] = utf8(row.tags().get(i));
        }
        byte[] unscaled = row.cost().unscaledValue().toByteArray();
        byte[] cacheKey = optional(row.cacheKey());
        byte[] endUser = optional(row.accounts().endUser());
        int body = MIN_BODY_BYTES + VERSION_2_FIELD_BYTES + unscaled.length;
        byte version = version(row, cacheKey, endUser);
        if (version >= CACHE_SINCE) {
            body += VERSION_3_FIELD_BYTES + (cacheKey == null ? 0 : cacheKey.length);
        }
        if (version >= END_USER_SINCE) {
            body += 4 + endUser.length;
        }
        for (byte[] string : strings) {
            body += string == null ? 0 : string.length;
        }
        for (byte[] tag : tags) {
            body += 4 + tag.length;
        }
        if (body > MAX_BODY_BYTES) {
            throw new IllegalArgumentException("row " + row.callId() + ": " + body + " bytes encoded (expected: <= "
                    + MAX_BODY_BYTES + ")");
        }
        return new Encoded(row, strings, tags, unscaled, cacheKey, endUser, body);
    }

    /** The oldest version that holds the row: what an older release reads, whenever the row lets it. */
    private static byte version(SpendRow row, byte[] cacheKey, byte[] endUser) {
        if (endUser != null) {
            return END_USER_SINCE;
        }
        return row.cacheHit() || cacheKey != null ? CACHE_SINCE : TAGS_SINCE;
    }

    /**
     * Decodes a body, which must fill {@code body}'s remaining bytes.
     *
     * @return empty when it does not hold a row this version writes
     */
    public static Optional<Decoded> decode(ByteBuffer body) {
        try {
            byte version = body.get();
            if (version < FIRST_VERSION || version > VERSION) {
                return Optional.empty();
            }
            long appendedAt = body.getLong();
            String callId = string(body);
            Optional<String> keyHash = Optional.ofNullable(string(body));
            Optional<String> teamId = Optional.ofNullable(string(body));
            Optional<String> userId = Optional.ofNullable(string(body));
            String modelGroup = string(body);
            Optional<String> deploymentId = Optional.ofNullable(string(body));
            long prompt = body.getLong();
            long completion = body.getLong();
            long total = body.getLong();
            int scale = body.getInt();
            BigDecimal cost = new BigDecimal(new BigInteger(bytes(body)), scale);
            int status = body.getInt();
            long durationMs = body.getLong();
            Instant startedAt = Instant.ofEpochSecond(body.getLong(), body.getInt());
            long cached = version >= TAGS_SINCE ? body.getLong() : 0;
            List<String> tags = version >= TAGS_SINCE ? tags(body) : List.of();
            boolean cacheHit = version >= CACHE_SINCE && flag(body);
            Optional<String> cacheKey = version >= CACHE_SINCE ? Optional.ofNullable(string(body)) : Optional.empty();
            Optional<String> endUser = version >= END_USER_SINCE ? Optional.ofNullable(string(body)) : Optional.empty();
            if (callId == null || modelGroup == null || body.hasRemaining()) {
                return Optional.empty();
            }
            SpendAccounts accounts = new SpendAccounts(keyHash, teamId, userId, endUser);
            SpendTokens tokens = new SpendTokens(prompt, completion, total, cached);
            return Optional.of(new Decoded(new SpendRow(callId, accounts, modelGroup, deploymentId, tokens, cost, status,
                    durationMs, startedAt, tags, cacheHit, cacheKey), appendedAt));
        } catch (BufferUnderflowException | IllegalArgumentException | ArithmeticException
                | java.time.DateTimeException e) {
            return Optional.empty();
        }
    }

    private static List<String> tags(ByteBuffer in) {
        int count = in.getInt();
        if (count < 0 || count > SpendRow.MAX_TAGS) {
            throw new IllegalArgumentException("tag count " + count);
        }
        List<String> tags = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String tag = string(in);
            if (tag == null) {
                throw new IllegalArgumentException("absent tag");
            }
            tags.add(tag);
        }
        return tags;
    }

    private static boolean flag(ByteBuffer in) {
        byte flag = in.get();
        if (flag != 0 && flag != 1) {
            throw new IllegalArgumentException("flag " + flag);
        }
        return flag == 1;
    }

    private static byte[] utf8(String value) {
        return value.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] optional(Optional<String> value) {
        return value.map(SpendRowCodec::utf8).orElse(null);
    }

    private static String string(ByteBuffer in) {
        byte[] bytes = bytes(in);
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }

    private static byte[] bytes(ByteBuffer in) {
        int length = in.getInt();
        if (length == -1) {
            return null;
        }
        if (length < 0 || length > in.remaining()) {
            throw new IllegalArgumentException("length " + length);
        }
        byte[] bytes = new byte[length];
        in.get(bytes);
        return bytes;
    }
}
