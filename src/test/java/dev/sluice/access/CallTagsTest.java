package dev.sluice.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.api.ApiError;
import dev.sluice.json.Json;
import dev.sluice.store.Team;
import dev.sluice.store.VirtualKey;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CallTagsTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private static ObjectNode body(String json) {
        try {
            return (ObjectNode) Json.parse(json.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
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
    void tagsThatAreNotAListOfStringsAreA400NamingTheField() {
        assertThatThrownBy(() -> CallTags.of(null, body("{\"tags\": \"prod\"}"), Caller.OPEN))
                .isInstanceOfSatisfying(ApiError.class, e -> {
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.param()).isEqualTo("tags");
                })
                .hasMessage("tags must be a list of strings; got string");
        assertThatThrownBy(() -> CallTags.of(null, body("{\"metadata\": {\"tags\": [1]}}"), Caller.OPEN))
                .hasMessage("metadata.tags must be a list of strings; it holds 1");
        assertThatThrownBy(() -> CallTags.of(null, body("{\"tags\": [\" \"]}"), Caller.OPEN))
                .hasMessage("each tag in tags must be 1 to 255 characters, not only spaces; got \" \"");
        assertThatThrownBy(() -> CallTags.of(null, body("{\"tags\": [\"" + "x".repeat(256) + "\"]}"), Caller.OPEN))
                .hasMessageStartingWith("each tag in tags must be 1 to 255 characters");
    }

    @Test
    void aRequestMayCarryThirtyTwoTagsButNotThirtyThree() {
        StringBuilder header = new StringBuilder();
        for (int i = 0; i < 32; i++) {
            header.append("t").append(i).append(',');
        }
        Caller caller = keyed("{\"tags\": [\"from-key\"]}", "{}");

        assertThat(CallTags.of(header.toString(), body("{}"), caller)).hasSize(32).doesNotContain("from-key");
        assertThatThrownBy(() -> CallTags.of(header + "t32", body("{}"), Caller.OPEN))
                .hasMessage("a call may carry at most 32 tags, its key's and team's included");
    }
}
