package dev.sluice.accounts;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.sluice.store.Team;
import dev.sluice.store.VirtualKey;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Optional;

/**
 * A {@link KeyDirectory.Found} as JSON and back, for its copy in Redis: the stored key (its
 * hash, never the key itself), its team, its user, its organization and the user's budget in
 * the team, each as the store has it. The team's router settings are derived again from the
 * team when read. Written with a {@link #VERSION}: a copy of another version is not used.
 */
final class KeyCopyCodec {
    /** Raised when what a copy holds changes shape, so a replica never reads a copy it would misread. */
    static final int VERSION = 1;

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .addModule(new Jdk8Module())
            .addModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .visibility(PropertyAccessor.ALL, JsonAutoDetect.Visibility.NONE)
            .visibility(PropertyAccessor.FIELD, JsonAutoDetect.Visibility.ANY)
            .build();

    /** What one copy holds. */
    record Copy(int version, VirtualKey key, Optional<Team> team, KeyOwners owners) {}

    private KeyCopyCodec() {}

    static String write(KeyDirectory.Found found) {
        try {
            return MAPPER.writeValueAsString(new Copy(VERSION, found.key(), found.team(), found.owners()));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The key a copy holds; empty for a copy of another version or one that cannot be read. */
    static Optional<KeyDirectory.Found> read(String json) {
        try {
            Copy copy = MAPPER.readValue(json, Copy.class);
            return copy.version() == VERSION ? Optional.of(new KeyDirectory.Found(copy.key(), copy.team(), copy.owners()))
                    : Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
