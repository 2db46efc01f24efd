package dev.sluice.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.accounts.Caller;
import dev.sluice.admin.AccountCalls.Access;
import dev.sluice.http.QueryParams;
import dev.sluice.store.KeyFilter;
import dev.sluice.store.Page;
import dev.sluice.store.StoreException;
import dev.sluice.store.VirtualKey;
import dev.sluice.wire.ApiError;
import dev.sluice.wire.Json;
import dev.sluice.wire.JsonFields;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * LiteLLM's key management API: {@code /key/generate}, {@code /key/info},
 * {@code /key/update}, {@code /key/delete}, {@code /key/list}, {@code /key/block} and
 * {@code /key/unblock}, with LiteLLM's request and answer shapes. Master key only, except
 * that a virtual key may read its own {@code /key/info}.
 *
 * <p>The store holds a key's SHA-256 (its {@code token}), never the key: {@code /key/generate}
 * shows the key once, and every other route takes the key or its token.
 */
public final class KeyAdminHandlers {
    private static final Logger log = LoggerFactory.getLogger(KeyAdminHandlers.class);
    private static final int DEFAULT_PAGE_SIZE = 10;
    private static final int MAX_PAGE_SIZE = 100;
    private static final int LONGEST_CHOSEN_KEY = 512;

    private final AccountApi api;
    private final AccountCalls calls;
    private final KeyRules rules;

    /** Create on the event loop whose requests it answers. */
    public KeyAdminHandlers(Vertx vertx, AccountApi api) {
        this.api = api;
        this.calls = new AccountCalls(vertx, api, "keys");
        this.rules = new KeyRules(api);
    }

    /** {@code POST /key/generate}: a new key, shown in the answer and never again. */
    public void generate(HttpServerRequest request) {
        calls.answer(request, "/key/generate", Access.MASTER_KEY, this::generated);
    }

    /** {@code GET /key/info?key=}: a key's settings and spend; a virtual key may ask about itself. */
    public void info(HttpServerRequest request) {
        calls.answer(request, "/key/info", Access.MASTER_KEY_OR_OWN_KEY, this::described);
    }

    /** {@code POST /key/update}: changes the settings the body holds, leaving the others. */
    public void update(HttpServerRequest request) {
        calls.answer(request, "/key/update", Access.MASTER_KEY, this::updated);
    }

    /** {@code POST /key/delete}: deletes keys named by key, token or alias. */
    public void delete(HttpServerRequest request) {
        calls.answer(request, "/key/delete", Access.MASTER_KEY, this::deleted);
    }

    /** {@code GET /key/list}: one page of tokens, or of whole keys with {@code return_full_object=true}. */
    public void list(HttpServerRequest request) {
        calls.answer(request, "/key/list", Access.MASTER_KEY, this::listed);
    }

    /** {@code POST /key/block}: the key is refused until unblocked. */
    public void block(HttpServerRequest request) {
        calls.answer(request, "/key/block", Access.MASTER_KEY, call -> blocked(call, true));
    }

    /** {@code POST /key/unblock}. */
    public void unblock(HttpServerRequest request) {
        calls.answer(request, "/key/unblock", Access.MASTER_KEY, call -> blocked(call, false));
    }

    private JsonNode generated(AccountCall call) {
        ObjectNode body = call.body();
        Instant now = api.clock().instant();
        String key = body.hasNonNull("key") ? chosenKey(body.get("key")) : NewKeys.generate();
        String token = VirtualKey.hash(key);
        VirtualKey.Builder builder = VirtualKey.builder(token, VirtualKey.maskedName(key), now);
        KeySettings.apply(body, builder, now, api.clock().getZone());
        VirtualKey created = KeySettings.build(builder);
        rules.requireTeam(created, Optional.empty());
        try {
            api.keys().insert(created);
        } catch (StoreException e) {
            throw rules.conflict(e, created);
        }
        call.written().key(token);
        log.info("keys.generated token={} key_name={} alias={} team={}", token, created.keyName(),
                created.keyAlias().orElse("-"), created.owner().teamId().orElse("-"));
        ObjectNode answer = Json.MAPPER.createObjectNode().put("key", key);
        answer.setAll(KeyView.of(created));
        return answer;
    }

    private JsonNode described(AccountCall call) {
        Optional<String> asked = call.query().text("key");
        String token;
        if (call.caller() instanceof Caller.Keyed keyed) {
            token = asked.map(KeyIds::tokenOf).orElse(keyed.keyHash());
            if (!token.equals(keyed.keyHash())) {
                // As LiteLLM: a key that does not exist is not found, whoever asks; only an existing
                // other key is refused.
                find(token, "key");
                throw new ApiError(403, "permission_error", "A virtual key may read only its own /key/info; "
                        + keyed.label() + " asked about another key.", "key", "permission_error");
            }
        } else {
            token = KeyIds.tokenOf(asked.orElseThrow(() -> JsonFields.missing("key")));
        }
        VirtualKey key = find(token, "key");
        ObjectNode answer = Json.MAPPER.createObjectNode().put("key", asked.orElse(token));
        answer.set("info", KeyView.of(key));
        return answer;
    }

    private JsonNode updated(AccountCall call) {
        ObjectNode body = call.body();
        String named = keyOrToken(JsonFields.required(body, "key"));
        String token = KeyIds.tokenOf(named);
        VirtualKey existing = find(token, "key");
        Instant now = api.clock().instant();
        VirtualKey.Builder builder = existing.toBuilder().updatedAt(now);
        KeySettings.apply(body, builder, now, api.clock().getZone());
        VirtualKey changed = KeySettings.build(builder);
        rules.requireTeam(changed, existing.owner().teamId());
        boolean found;
        try {
            found = api.keys().update(changed);
        } catch (StoreException e) {
            throw rules.conflict(e, changed);
        }
        if (!found) {
            throw keyNotFound("key");
        }
        call.written().key(token);
        log.info("keys.updated token={}", token);
        // Read back: the answer shows the spend as it is now, which an update never writes.
        VirtualKey stored = api.keys().findByHash(token).orElse(changed);
        ObjectNode answer = Json.MAPPER.createObjectNode().put("key", named);
        answer.setAll(KeyView.of(stored));
        return answer;
    }

    private JsonNode deleted(AccountCall call) {
        ObjectNode body = call.body();
        List<String> keys = body.hasNonNull("keys") ? JsonFields.names(body.get("keys"), "keys") : List.of();
        List<String> aliases = body.hasNonNull("key_aliases") ? JsonFields.names(body.get("key_aliases"), "key_aliases") : List.of();
        if (keys.isEmpty() && aliases.isEmpty()) {
            throw ApiError.invalidRequest("Give the keys to delete in 'keys' (keys or tokens) or 'key_aliases'.", "keys",
                    "missing_required_parameter");
        }
        List<String> deleted = new ArrayList<>();
        for (String named : keys) {
            String token = KeyIds.tokenOf(named);
            if (api.keys().delete(token)) {
                call.written().key(token);
                deleted.add(named);
            }
        }
        for (String alias : aliases) {
            Optional<VirtualKey> key = api.keys().findByAlias(alias);
            if (key.isPresent() && api.keys().delete(key.get().tokenHash())) {
                call.written().key(key.get().tokenHash());
                deleted.add(alias);
            }
        }
        if (deleted.isEmpty()) {
            throw ApiError.notFound("None of the keys to delete exists.", "key_not_found");
        }
        log.info("keys.deleted count={}", deleted.size());
        ObjectNode answer = Json.MAPPER.createObjectNode();
        deleted.forEach(answer.putArray("deleted_keys")::add);
        return answer;
    }

    private JsonNode listed(AccountCall call) {
        QueryParams query = call.query();
        int page = query.number("page", 1, 1, Integer.MAX_VALUE);
        int size = query.number("size", DEFAULT_PAGE_SIZE, 1, MAX_PAGE_SIZE);
        boolean fullObjects = query.flag("return_full_object", false);
        KeyFilter filter = new KeyFilter(query.text("team_id"), query.text("user_id"));
        long total = api.keys().count(filter);
        List<VirtualKey> keys = api.keys().list(filter, Page.of(page, size));
        ObjectNode answer = Json.MAPPER.createObjectNode();
        ArrayNode listed = answer.putArray("keys");
        for (VirtualKey key : keys) {
            if (fullObjects) {
                listed.add(KeyView.of(key));
            } else {
                listed.add(key.tokenHash());
            }
        }
        answer.put("total_count", total);
        answer.put("current_page", page);
        answer.put("total_pages", (total + size - 1) / size);
        return answer;
    }

    private JsonNode blocked(AccountCall call, boolean blocked) {
        String named = keyOrToken(JsonFields.required(call.body(), "key"));
        String token = KeyIds.tokenOf(named);
        VirtualKey changed = find(token, "key").toBuilder().blocked(blocked).updatedAt(api.clock().instant()).build();
        if (!api.keys().update(changed)) {
            throw keyNotFound("key");
        }
        call.written().key(token);
        log.info("keys.{} token={}", blocked ? "blocked" : "unblocked", token);
        return KeyView.of(api.keys().findByHash(token).orElse(changed));
    }

    /** The key or token an update, block or unblock names. */
    private static String keyOrToken(JsonNode value) {
        if (!value.isTextual() || value.textValue().isBlank() || value.textValue().length() > LONGEST_CHOSEN_KEY) {
            throw ApiError.invalidRequest("Invalid 'key': expected a key (sk-...) or its token, the 64 hex digits "
                    + "/key/generate answers as 'token'.", "key", "invalid_value");
        }
        return value.textValue();
    }

    /** A key the caller chose: LiteLLM's form, {@code sk-} and visible ASCII, never echoed back in an error. */
    private static String chosenKey(JsonNode value) {
        boolean wellFormed = value.isTextual()
                && value.textValue().startsWith("sk-")
                && value.textValue().length() > "sk-".length()
                && value.textValue().length() <= LONGEST_CHOSEN_KEY
                && value.textValue().chars().allMatch(c -> c > ' ' && c < 0x7f);
        if (!wellFormed) {
            throw ApiError.invalidRequest("Invalid 'key': a key you choose must be a string that starts with 'sk-', of at most "
                    + LONGEST_CHOSEN_KEY + " visible ASCII characters without spaces (the value is not repeated here).",
                    "key", "invalid_value");
        }
        return value.textValue();
    }

    private VirtualKey find(String token, String param) {
        return api.keys().findByHash(token).orElseThrow(() -> keyNotFound(param));
    }

    private static ApiError keyNotFound(String param) {
        return new ApiError(404, "invalid_request_error", "Key not found: no stored key has that key or token.", param,
                "key_not_found");
    }
}
