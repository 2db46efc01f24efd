package dev.sluice.ops.callbacks;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.wire.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The bodies the queued callbacks post: LiteLLM's standard logging payload and Langfuse's
 * ingestion batch, their field names and types, redaction with message logging off, and
 * masking of whatever key or token a prompt, an answer or an error quotes.
 */
class PayloadsTest {

    private static JsonNode generic(boolean messageLogging, CallRecord... records) throws Exception {
        return Json.parse(new StandardLoggingPayload(new LoggedContent(messageLogging)).body(List.of(records)));
    }

    private static JsonNode langfuse(boolean messageLogging, CallRecord record) throws Exception {
        return Json.parse(new LangfuseBatch(new LoggedContent(messageLogging)).body(List.of(record)));
    }

    @Test
    void aServedCallIsAStandardLoggingPayloadWithLiteLlmsFieldNamesAndTypes() throws Exception {
        JsonNode batch = generic(true, Records.served("call-1"), Records.failed("call-2"));

        assertThat(batch.isArray()).isTrue();
        assertThat(batch).hasSize(2);
        JsonNode payload = batch.get(0);
        assertThat(payload.get("id").textValue()).isEqualTo("call-1");
        assertThat(payload.get("trace_id").textValue()).isEqualTo("call-1");
        assertThat(payload.get("call_type").textValue()).isEqualTo("acompletion");
        assertThat(payload.get("stream").booleanValue()).isFalse();
        assertThat(payload.get("status").textValue()).isEqualTo("success");
        assertThat(payload.get("response_cost").doubleValue()).isEqualTo(0.00042);
        assertThat(payload.get("custom_llm_provider").textValue()).isEqualTo("openai");
        assertThat(payload.get("prompt_tokens").longValue()).isEqualTo(12);
        assertThat(payload.get("completion_tokens").longValue()).isEqualTo(5);
        assertThat(payload.get("total_tokens").longValue()).isEqualTo(17);
        assertThat(payload.get("startTime").isNumber()).isTrue();
        String written = new String(new StandardLoggingPayload(new LoggedContent(true)).body(List.of(Records.served("call-1"))),
                java.nio.charset.StandardCharsets.UTF_8);
        assertThat(written).as("seconds since the epoch, written plain as Python writes a float")
                .contains("\"startTime\":1735689600.250000", "\"endTime\":1735689601.150000",
                        "\"completionStartTime\":1735689600.650000");
        assertThat(payload.get("response_time").doubleValue()).isEqualTo(0.9);
        assertThat(payload.get("model").textValue()).isEqualTo("gpt-4o-mini");
        assertThat(payload.get("model_id").textValue()).isEqualTo("dep-1");
        assertThat(payload.get("model_group").textValue()).isEqualTo("chat");
        assertThat(payload.get("api_base").textValue()).isEqualTo("http://upstream.example:8000/v1");
        assertThat(payload.get("cache_hit").booleanValue()).isFalse();
        assertThat(payload.get("cache_key").isNull()).isTrue();
        assertThat(payload.get("request_tags").toString()).isEqualTo("[\"team:blue\"]");
        assertThat(payload.get("end_user").textValue()).isEqualTo("end-user-1");
        assertThat(payload.get("error_str").isNull()).isTrue();
        assertThat(payload.get("model_parameters").toString()).isEqualTo("{\"temperature\":0.3,\"max_tokens\":64,\"top_p\":0.9}");
        assertThat(payload.get("hidden_params").get("model_id").textValue()).isEqualTo("dep-1");
        JsonNode metadata = payload.get("metadata");
        assertThat(metadata.get("user_api_key_hash").textValue()).isEqualTo(Records.KEY_HASH);
        assertThat(metadata.get("user_api_key_alias").textValue()).isEqualTo("team-key");
        assertThat(metadata.get("user_api_key_team_id").textValue()).isEqualTo("team-1");
        assertThat(metadata.get("user_api_key_user_id").textValue()).isEqualTo("user-7");
        assertThat(payload.get("messages").get(1).get("content").textValue()).isEqualTo("user secret sk-****");
        assertThat(payload.get("response").get("choices").get(0).get("message").get("content").textValue())
                .isEqualTo("the answer, with Bearer **** in it");
    }

    @Test
    void aFailedCallSaysWhyInLiteLlmsErrorInformation() throws Exception {
        JsonNode payload = generic(true, Records.failed("call-2")).get(0);

        assertThat(payload.get("status").textValue()).isEqualTo("failure");
        assertThat(payload.get("error_str").textValue()).isEqualTo("answered 429: quota exceeded for api_key=****");
        JsonNode information = payload.get("error_information");
        assertThat(information.get("error_code").textValue()).isEqualTo("429");
        assertThat(information.get("error_class").textValue()).isEqualTo("RateLimitError");
        assertThat(information.get("llm_provider").textValue()).isEqualTo("azure");
        assertThat(payload.get("response").isNull()).isTrue();
        assertThat(payload.get("api_base").textValue()).isEmpty();
        assertThat(payload.get("metadata").get("user_api_key_hash").isNull()).isTrue();
        assertThat(payload.toString()).doesNotContain("sk-azure-0123456789");
    }

    @Test
    void withMessageLoggingOffPromptsAndAnswersAreLiteLlmsPlaceholders() throws Exception {
        JsonNode served = generic(false, Records.served("call-1")).get(0);
        JsonNode failed = generic(false, Records.failed("call-2")).get(0);

        assertThat(served.get("messages").toString()).isEqualTo("[{\"role\":\"user\",\"content\":\"redacted-by-litellm\"}]");
        assertThat(served.get("response").toString()).isEqualTo("{\"text\":\"redacted-by-litellm\"}");
        assertThat(failed.get("response").isNull()).isTrue();
        assertThat(served.toString()).doesNotContain("user secret").doesNotContain("the answer");
    }

    @Test
    void aLangfuseBatchHasATraceAndAGenerationPerCall() throws Exception {
        JsonNode events = langfuse(true, Records.served("call-1")).get("batch");

        assertThat(events).hasSize(2);
        JsonNode trace = events.get(0);
        assertThat(trace.get("type").textValue()).isEqualTo("trace-create");
        assertThat(trace.get("id").textValue()).isEqualTo("call-1-trace");
        assertThat(trace.get("body").get("id").textValue()).isEqualTo("call-1");
        assertThat(trace.get("body").get("name").textValue()).isEqualTo("litellm-acompletion");
        assertThat(trace.get("body").get("userId").textValue()).isEqualTo("user-7");
        assertThat(trace.get("body").get("tags").toString()).isEqualTo("[\"team:blue\"]");
        JsonNode generation = events.get(1);
        assertThat(generation.get("type").textValue()).isEqualTo("generation-create");
        JsonNode body = generation.get("body");
        assertThat(body.get("traceId").textValue()).isEqualTo("call-1");
        assertThat(body.get("model").textValue()).isEqualTo("gpt-4o-mini");
        assertThat(body.get("startTime").textValue()).isEqualTo("2025-01-01T00:00:00.250Z");
        assertThat(body.get("completionStartTime").textValue()).isEqualTo("2025-01-01T00:00:00.650Z");
        assertThat(body.get("endTime").textValue()).isEqualTo("2025-01-01T00:00:01.150Z");
        assertThat(body.get("usage").toString()).isEqualTo("{\"input\":12,\"output\":5,\"total\":17,\"unit\":\"TOKENS\"}");
        assertThat(body.get("costDetails").get("total").doubleValue()).isEqualTo(0.00042);
        assertThat(body.get("level").textValue()).isEqualTo("DEFAULT");
        assertThat(body.get("input").get(1).get("content").textValue()).isEqualTo("user secret sk-****");
        assertThat(body.get("metadata").get("user_api_key_hash").textValue()).isEqualTo(Records.KEY_HASH);
    }

    @Test
    void langfuseOtelPostsOneOtlpSpanPerCallWithLangfusesGenerationAttributes() throws Exception {
        JsonNode body = Json.parse(new LangfuseOtelBatch(new LoggedContent(true), true, "sluice-test")
                .body(List.of(Records.served("call-1"), Records.failed("call-2"))));

        JsonNode resource = body.get("resourceSpans").get(0);
        assertThat(resource.get("resource").get("attributes").get(0).toString())
                .isEqualTo("{\"key\":\"service.name\",\"value\":{\"stringValue\":\"sluice-test\"}}");
        JsonNode spans = resource.get("scopeSpans").get(0).get("spans");
        assertThat(spans).hasSize(2);
        JsonNode served = spans.get(0);
        assertThat(served.get("traceId").textValue()).hasSize(32);
        assertThat(served.get("spanId").textValue()).hasSize(16);
        assertThat(served.get("name").textValue()).isEqualTo("litellm-acompletion");
        assertThat(served.get("startTimeUnixNano").textValue()).isEqualTo("1735689600250000000");
        assertThat(served.get("status").get("code").intValue()).isEqualTo(1);
        assertThat(otlpAttribute(served, "langfuse.observation.type").get("stringValue").textValue()).isEqualTo("generation");
        assertThat(otlpAttribute(served, "gen_ai.usage.input_tokens").get("intValue").textValue()).isEqualTo("12");
        assertThat(otlpAttribute(served, "gen_ai.request.temperature").get("doubleValue").doubleValue()).isEqualTo(0.3);
        assertThat(otlpAttribute(served, "langfuse.observation.input").get("stringValue").textValue()).contains("sk-****")
                .doesNotContain("sk-live-abcdef123456");
        assertThat(otlpAttribute(served, "langfuse.trace.tags").get("arrayValue").get("values").get(0).get("stringValue")
                .textValue()).isEqualTo("team:blue");
        JsonNode failed = spans.get(1);
        assertThat(failed.get("status").get("code").intValue()).isEqualTo(2);
        assertThat(otlpAttribute(failed, "langfuse.observation.level").get("stringValue").textValue()).isEqualTo("ERROR");
        assertThat(body.toString()).doesNotContain("sk-azure-0123456789");
    }

    private static JsonNode otlpAttribute(JsonNode span, String key) {
        for (JsonNode attribute : span.get("attributes")) {
            if (attribute.get("key").textValue().equals(key)) {
                return attribute.get("value");
            }
        }
        throw new AssertionError("no attribute " + key + " in " + span);
    }

    @Test
    void aFailedCallIsAnErrorGenerationAndNothingLeaksWithMessageLoggingOff() throws Exception {
        JsonNode body = langfuse(false, Records.failed("call-2")).get("batch").get(1).get("body");

        assertThat(body.get("level").textValue()).isEqualTo("ERROR");
        assertThat(body.get("statusMessage").textValue()).isEqualTo("answered 429: quota exceeded for api_key=****");
        assertThat(body.get("input").toString()).isEqualTo("[{\"role\":\"user\",\"content\":\"redacted-by-litellm\"}]");
        assertThat(body.get("output").isNull()).isTrue();
    }

    @Test
    void aKeyTheGatewayHoldsIsMaskedInThePayloadEvenWhenEchoedInAnotherCaseOrCutShort() {
        String key = "az-5f4e3d2c1b0a98765432";
        try (dev.sluice.ops.logging.SecretMask.Known held = dev.sluice.ops.logging.SecretMask.known()) {
            held.hold(List.of(key));
            JsonNode payload = LoggedContent.masked(Json.MAPPER.createObjectNode()
                    .put("error", "upstream quoted " + key.toUpperCase())
                    .put("cut", key.substring(3, 15)));
            assertThat(payload.path("error").asText()).isEqualTo("upstream quoted ****5432");
            assertThat(payload.path("cut").asText()).isEqualTo("****");
        }
    }
}
