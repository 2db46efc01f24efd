package dev.sluice.accounts;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.store.Team;
import dev.sluice.store.VirtualKey;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CallTagsTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private static ObjectNode body(String json) {
        try {
            return (ObjectNode) Json.parse(json.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Caller.Keyed keyed(String keyMetadata, String teamMetadata) {
        VirtualKey key = VirtualKey.builder(VirtualKey.hash("sk-tags"), "sk-...tags", T0).metadata(body(keyMetadata)).build();
        Team team = Team.builder("t", T0).metadata(body(teamMetadata)).build();
        return new Caller.Keyed(key, Optional.of(team), "sk-tags");
    }

    @Test
    void theRequestsTagsComeFirstThenTheKeysAndTheTeamsEachOnce() {
        Caller caller = keyed("{\"tags\": [\"key-tag\", \"shared\", 7]}", "{\"tags\": [\"team-tag\", \"shared\"]}");

        assertThat(CallTags.of(" header-a , ,header-b", body("{\"tags\": [\"body\"], \"metadata\": {\"tags\": [\"meta\", \"body\"]}}"),
                caller)).containsExactly("body", "meta", "header-a", "header-b", "key-tag", "shared", "team-tag");
    }

    @Test
    void aCallWithoutTagsHasNone() {
        assertThat(CallTags.of(null, body("{\"model\": \"g\", \"metadata\": {\"user\": \"u\"}}"), Caller.OPEN)).isEmpty();
        assertThat(CallTags.of(null, body("{\"tags\": null}"), Caller.OPEN)).isEmpty();
    }

    @Test
    void whatIsNotATagIsPassedOverAsLiteLlmDoesNotRefused() {
        // OpenAI's metadata is the caller's own string map: a string there is a valid request.
        assertThat(CallTags.of(null, body("{\"metadata\": {\"tags\": \"billing\"}}"), Caller.OPEN)).isEmpty();
        assertThat(CallTags.of(null, body("{\"tags\": \"prod\"}"), Caller.OPEN)).isEmpty();
        assertThat(CallTags.of(null, body("{}"), keyed("{\"tags\": {\"a\": \"b\"}}", "{\"tags\": \"t\"}"))).isEmpty();
        assertThat(CallTags.of(null, body("{\"tags\": [1, \" \", \"" + "x".repeat(256) + "\", \" ok \", {\"a\": 1}]}"),
                Caller.OPEN)).containsExactly("ok");
    }

    @Test
    void aCallCarriesAtMostThirtyTwoTagsItsOwnFirst() {
        StringBuilder header = new StringBuilder();
        for (int i = 0; i < 33; i++) {
            header.append("t").append(i).append(',');
        }
        Caller caller = keyed("{\"tags\": [\"from-key\"]}", "{}");

        assertThat(CallTags.of(header.toString(), body("{}"), caller)).hasSize(32).startsWith("t0").endsWith("t31")
                .doesNotContain("t32", "from-key");
    }
}
