package dev.sluice.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import java.util.Set;

/**
 * The fields of a request body that steer the gateway itself (fallbacks, retries, timeouts,
 * guardrails, a mock answer for tests) whatever entry API the body is written for. They mean
 * nothing, or something else, to a vendor: adapters never send them upstream, and an entry API
 * that translates its callers' bodies keeps them for the gateway's rules to read.
 */
public final class GatewayFields {
    /** The gateway's own fields by name. */
    public static final Set<String> NAMES = Set.of(
            "router_settings_override",
            "guardrails",
            "num_retries",
            "timeout",
            "fallbacks",
            "context_window_fallbacks",
            "content_policy_fallbacks",
            "disable_fallbacks",
            "drop_params",
            "tags",
            "cache",
            GatewayFields.CONTINUED_FROM,
            GatewayFields.UNTRANSLATABLE);

    /**
     * The id of a Responses API response whose kept turns a call's input already holds: the
     * gateway joined them in place of {@code previous_response_id}, which it still answers with.
     */
    public static final String CONTINUED_FROM = "sluice_continued_from";

    /**
     * Why a call written in another entry API's dialect could not be translated to OpenAI's
     * form (a block or tool only its own vendor takes): set by the entry API on the approximate
     * view the gateway reads instead, so that only a deployment taking the caller's body
     * untranslated is called.
     */
    public static final String UNTRANSLATABLE = "sluice_untranslatable";

    /** The prefix of the fields that ask a deployment for a canned answer in tests. */
    public static final String MOCK_TESTING_PREFIX = "mock_testing_";

    private GatewayFields() {}

    /** Sets on {@code to} each of the gateway's own fields {@code from} holds, as it holds them. */
    public static void copy(ObjectNode from, ObjectNode to) {
        for (Map.Entry<String, JsonNode> field : from.properties()) {
            if (isGatewayField(field.getKey())) {
                to.set(field.getKey(), field.getValue());
            }
        }
    }

    /** Whether {@code name} is one of the gateway's own fields. */
    public static boolean isGatewayField(String name) {
        return NAMES.contains(name) || name.startsWith(MOCK_TESTING_PREFIX);
    }
}
