package dev.sluice.vendors.anthropic.entry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.model.GatewayFields;
import dev.sluice.model.ModelRequest;
import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;

class MessagesCodecTest {

    @Test
    void aCallOnlyAnthropicTakesKeepsTheGatewaysOwnFieldsInTheViewItsRulesRead() {
        ModelRequest decoded = MessagesCodec.MESSAGES.decode(Buffer.buffer("""
                {"model":"m","max_tokens":10,"num_retries":2,"fallbacks":["other"],
                 "messages":[{"role":"user","content":[{"type":"document","source":{"type":"text","media_type":"text/plain",
                   "data":"a document"}},{"type":"text","text":"what does it say?"}]}]}"""));

        assertThat(decoded.body().has(GatewayFields.UNTRANSLATABLE)).isTrue();
        assertThat(decoded.body().get("num_retries").asInt()).isEqualTo(2);
        assertThat(decoded.body().get("fallbacks").get(0).asText()).isEqualTo("other");
        assertThat(decoded.body().at("/messages/0/content").asText()).contains("what does it say?");
        assertThat(decoded.callerBody().at("/messages/0/content/0/type").asText()).isEqualTo("document");
    }

    @Test
    void aCountNeedsNoMaxTokensAndLeavesTheCallersBodyAsItCame() {
        ModelRequest decoded = MessagesCodec.COUNT_TOKENS.decode(Buffer.buffer("""
                {"model":"m","messages":[{"role":"user","content":"hi"}]}"""));

        assertThat(decoded.callerBody().has("max_tokens")).isFalse();
        assertThat(decoded.body().at("/messages/0/content").asText()).isEqualTo("hi");
    }
}
