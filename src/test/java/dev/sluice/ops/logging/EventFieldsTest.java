package dev.sluice.ops.logging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class EventFieldsTest {

    @Test
    void theEventIsTheFirstWordWhenItIsADottedName() {
        assertThat(EventFields.event("models.deployment_added group=g")).contains("models.deployment_added");
        assertThat(EventFields.event("models.store_readable; added models follow the store again")).contains("models.store_readable");
        assertThat(EventFields.event("router.attempt")).contains("router.attempt");
    }

    @Test
    void aLineThatDoesNotStartWithADottedNameHasNoEvent() {
        assertThat(EventFields.event("store: H2 file /tmp/x.mv.db, schema version 3")).isEmpty();
        assertThat(EventFields.event("Redis at redis://cache:6379 is reachable again")).isEmpty();
        assertThat(EventFields.event("Models.Added group=g")).isEmpty();
        assertThat(EventFields.event("models.added=3")).isEmpty();
        assertThat(EventFields.event("")).isEmpty();
    }

    @Test
    void eachPlaceholderAfterAKeyIsAFieldOfItsOwnType() {
        Instant until = Instant.parse("2026-01-01T00:00:00Z");
        assertThat(EventFields.fields("router.deployment_benched group={} deployment={} class={} until={} delay_ms={} shared={}",
                new Object[] {"g", "a b", "server", until, 120L, true}))
                .containsExactly(entry("group", "g"), entry("deployment", "a b"), entry("class", "server"),
                        entry("until", "2026-01-01T00:00:00Z"), entry("delay_ms", 120L), entry("shared", true));
    }

    @Test
    void aQuotedPlaceholderIsAFieldWithoutItsQuotes() {
        assertThat(EventFields.fields("{} call_id={} status={} cause=\"{}\"",
                new Object[] {"dispatch.timeout", "c1", 0, "timed out, after 2 s"}))
                .containsExactly(entry("call_id", "c1"), entry("status", 0), entry("cause", "timed out, after 2 s"));
    }

    @Test
    void aPlaceholderWithoutAKeyGivesNoField() {
        assertThat(EventFields.fields("keys.{} token={}", new Object[] {"blocked", "ab12"}))
                .containsExactly(entry("token", "ab12"));
        assertThat(EventFields.fields("fallback.over_budget group={} {}", new Object[] {"g", "team t has spent 3"}))
                .containsExactly(entry("group", "g"));
        assertThat(EventFields.fields("models.stored_entry_skipped id={} reason=its entry now gives the id '{}'",
                new Object[] {"m1", "m2"})).containsExactly(entry("id", "m1"));
        assertThat(EventFields.fields("x.y a=b{}", new Object[] {"c"})).isEmpty();
    }

    @Test
    void anEscapedPlaceholderTakesNoArgument() {
        assertThat(EventFields.fields("x.y literal=\\{} real={}", new Object[] {"v"})).containsExactly(entry("real", "v"));
        assertThat(EventFields.fields("x.y path=\\\\{}", new Object[] {"v"})).isEmpty();
    }

    @Test
    void aKeyWrittenTwiceKeepsItsFirstValueAndMissingArgumentsGiveNoField() {
        assertThat(EventFields.fields("x.y a={} a={} b={}", new Object[] {1, 2})).containsExactly(entry("a", 1));
        assertThat(EventFields.fields("x.y a={}", null)).isEmpty();
        assertThat(EventFields.fields("x.y a={}", new Object[] {null})).containsExactly(entry("a", null));
    }
}
