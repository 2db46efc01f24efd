package dev.sluice.vendors.openai.responses;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.wire.Json;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class ResponsesBridgeTest {

    private static ObjectNode body(String json) throws IOException {
        return (ObjectNode) Json.parse(json.getBytes());
    }

    @Test
    void aRequestChatCompletionsCanCarryCrossesWhole() throws IOException {
        ObjectNode body = body("""
                {"model":"m","input":"hi","tools":[{"type":"function","name":"f"}],"tool_choice":"auto","store":false,
                 "background":false}""");

        ResponsesBridge.Bridged bridged = ResponsesBridge.of(body);

        assertThat(bridged.leftOut()).isEmpty();
        assertThat(bridged.translatable()).isEqualTo(body);
    }

    @Test
    void hostedToolsNewerFieldsAndBackgroundRunsAreLeftOutByName() throws IOException {
        ResponsesBridge.Bridged bridged = ResponsesBridge.of(body("""
                {"model":"m","input":"hi","tools":[{"type":"function","name":"f"},{"type":"web_search"}],
                 "tool_choice":{"type":"file_search"},"conversation":"conv_1","background":true}"""));

        assertThat(bridged.leftOut()).containsExactly("tools[1] (web_search)", "tool_choice", "conversation", "background");
        assertThat(bridged.translatable().get("tools")).hasSize(1);
        assertThat(bridged.translatable().has("conversation")).isFalse();
        assertThat(ResponsesApi.decodeRequest(bridged.translatable()).chat().tools()).hasSize(1);
    }
}
