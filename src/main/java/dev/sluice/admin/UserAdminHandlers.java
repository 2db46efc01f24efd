package dev.sluice.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.accounts.Caller;
import dev.sluice.accounts.limits.Scope;
import dev.sluice.admin.AccountCalls.Access;
import dev.sluice.store.KeyFilter;
import dev.sluice.store.Page;
import dev.sluice.store.StoreException;
import dev.sluice.store.TeamMember;
import dev.sluice.store.User;
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
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * LiteLLM's internal user API: {@code /user/new}, {@code /user/info}, {@code /user/update},
 * {@code /user/delete} and {@code /user/list}, with LiteLLM's request and answer shapes.
 * Master key only, except that a virtual key may read the {@code /user/info} of its own user.
 *
 * <p>As in LiteLLM, {@code /user/new} also makes a key for the user and shows it once
 * ({@code auto_create_key: false} skips it), and deleting a user deletes its keys.
 */
public final class UserAdminHandlers implements AccountHandlers {
    private static final Logger log = LoggerFactory.getLogger(UserAdminHandlers.class);
    private static final int DEFAULT_PAGE_SIZE = 25;
    private static final int MAX_PAGE_SIZE = 100;

    private final AccountApi api;
    private final AccountCalls calls;
    private final UserKeys keys;
    private final KeyRules rules;

    /** Create on the event loop whose requests it answers. */
    public UserAdminHandlers(Vertx vertx, AccountApi api) {
        this.api = api;
        this.calls = new AccountCalls(vertx, api, "users");
        this.keys = new UserKeys(api);
        this.rules = new KeyRules(api);
    }

    /** {@code POST /user/new}: a new user, and a key for it. */
    public void create(HttpServerRequest request) {
        calls.answer(request, "/user/new", Access.MASTER_KEY, this::created);
    }

    /** {@code GET /user/info?user_id=}: a user, its keys and its teams. */
    public void info(HttpServerRequest request) {
        calls.answer(request, "/user/info", Access.MASTER_KEY_OR_OWN_KEY, this::described);
    }

    /** {@code POST /user/update}: changes the settings the body holds, leaving the others. */
    public void update(HttpServerRequest request) {
        calls.answer(request, "/user/update", Access.MASTER_KEY, this::updated);
    }

    /** {@code POST /user/delete}: deletes users and their keys, all or (when one is unknown) none. */
    public void delete(HttpServerRequest request) {
        calls.answer(request, "/user/delete", Access.MASTER_KEY, this::deleted);
    }

    /** {@code GET /user/list?page=&page_size=}: one page of users, oldest first. */
    public void list(HttpServerRequest request) {
        calls.answer(request, "/user/list", Access.MASTER_KEY, this::listed);
    }

    private JsonNode created(AccountCall call) {
        ObjectNode body = call.body();
        Instant now = api.clock().instant();
        String userId = body.hasNonNull("user_id") ? JsonFields.name(body.get("user_id"), "user_id") : UUID.randomUUID().toString();
        boolean withKey = !body.hasNonNull("auto_create_key") || JsonFields.bool(body.get("auto_create_key"), "auto_create_key");
        List<String> teams = body.hasNonNull("teams") ? JsonFields.names(body.get("teams"), "teams") : List.of();
        for (String team : teams) {
            rules.requireTeam(team, "teams");
        }
        User.Builder builder = User.builder(userId, now);
        OwnerSettings.user(body, builder, now, api.clock().getZone());
        User user = OwnerSettings.built("user", builder::build);
        Optional<UserKeys.Prepared> key = withKey ? Optional.of(keys.prepare(body, userId)) : Optional.empty();
        try {
            api.owners().users().insert(user);
        } catch (StoreException e) {
            if (e.reason() == StoreException.Reason.CONFLICT) {
                throw new ApiError(409, "invalid_request_error", "Invalid 'user_id': \"" + userId
                        + "\" is already a user's id (expected: a new id, or none to have one generated).", "user_id",
                        "duplicate_user_id");
            }
            throw e;
        }
        // Keys stored before the user naming its id are read again, now with its budget and models.
        call.written().owner(new Scope.User(userId));
        for (String team : teams) {
            api.owners().members().put(new TeamMember(team, userId, "user", Optional.empty(), now));
        }
        log.info("users.created user={} key={}", userId, withKey);
        ObjectNode answer = Json.MAPPER.createObjectNode();
        if (key.isPresent()) {
            answer.setAll(storeOrUndo(key.get(), userId, call));
        } else {
            answer.putNull("key");
        }
        answer.setAll(OwnerViews.user(user, teams));
        return answer;
    }

    /**
     * Stores the new user's key; when that fails (another call took its alias meanwhile, or
     * the store went away), takes back the user and its memberships this call just wrote, so
     * the caller can send the same call again.
     */
    private ObjectNode storeOrUndo(UserKeys.Prepared key, String userId, AccountCall call) {
        try {
            return keys.store(key, call.written());
        } catch (RuntimeException failed) {
            try {
                api.owners().members().deleteAll("user_id", userId);
                api.owners().users().delete(userId);
            } catch (RuntimeException undoFailed) {
                failed.addSuppressed(undoFailed);
                log.warn("users.created_without_key user={} reason={}", userId, undoFailed.toString());
            }
            throw failed;
        }
    }

    private JsonNode described(AccountCall call) {
        String userId = asked(call);
        User user = find(userId, "user_id");
        ObjectNode answer = Json.MAPPER.createObjectNode().put("user_id", userId);
        List<TeamMember> memberships = api.owners().members().ofUser(userId);
        answer.set("user_info", OwnerViews.user(user, memberships.stream().map(TeamMember::teamId).toList()));
        ArrayNode keyViews = answer.putArray("keys");
        for (VirtualKey key : userKeys(userId)) {
            keyViews.add(KeyView.of(key));
        }
        ArrayNode teams = answer.putArray("teams");
        for (TeamMember membership : memberships) {
            api.teams().findById(membership.teamId()).ifPresent(team -> teams.add(TeamView.of(team)));
        }
        return answer;
    }

    /** The user asked about: a virtual key may ask only about its own user, and names it by default. */
    private static String asked(AccountCall call) {
        java.util.Optional<String> asked = call.query().text("user_id");
        if (!(call.caller() instanceof Caller.Keyed keyed)) {
            return asked.orElseThrow(() -> JsonFields.missing("user_id"));
        }
        java.util.Optional<String> own = keyed.key().owner().userId();
        if (own.isEmpty() || asked.filter(id -> !id.equals(own.get())).isPresent()) {
            throw new ApiError(403, "permission_error", "A virtual key may read only the /user/info of its own user; "
                    + keyed.label() + (own.isEmpty() ? " belongs to no user." : " asked about another user."), "user_id",
                    "permission_error");
        }
        return own.get();
    }

    private JsonNode updated(AccountCall call) {
        ObjectNode body = call.body();
        String userId = JsonFields.name(JsonFields.required(body, "user_id"), "user_id");
        User.Builder builder = find(userId, "user_id").toBuilder();
        OwnerSettings.user(body, builder, api.clock().instant(), api.clock().getZone());
        User changed = OwnerSettings.built("user", builder::build);
        if (!api.owners().users().update(changed)) {
            throw userNotFound(userId, "user_id");
        }
        call.written().owner(new Scope.User(userId));
        log.info("users.updated user={}", userId);
        // Read back: the answer shows the spend as it is now, which an update never writes.
        User stored = api.owners().users().findById(userId).orElse(changed);
        return OwnerViews.user(stored, api.owners().members().ofUser(userId).stream().map(TeamMember::teamId).toList());
    }

    private JsonNode deleted(AccountCall call) {
        List<String> userIds = JsonFields.ids(JsonFields.required(call.body(), "user_ids"), "user_ids");
        if (userIds.isEmpty()) {
            throw JsonFields.invalid("user_ids", call.body().get("user_ids"), "at least one user id");
        }
        for (String userId : userIds) {
            find(userId, "user_ids");
        }
        List<String> deletedKeys = new ArrayList<>();
        for (String userId : userIds) {
            for (VirtualKey key : userKeys(userId)) {
                if (api.keys().delete(key.tokenHash())) {
                    call.written().key(key.tokenHash());
                    deletedKeys.add(key.tokenHash());
                }
            }
            api.owners().members().deleteAll("user_id", userId);
            api.owners().users().delete(userId);
            call.written().owner(new Scope.User(userId));
        }
        log.info("users.deleted users={} keys={}", userIds.size(), deletedKeys.size());
        ObjectNode answer = Json.MAPPER.createObjectNode();
        userIds.forEach(answer.putArray("deleted_users")::add);
        deletedKeys.forEach(answer.putArray("deleted_keys")::add);
        return answer;
    }

    private JsonNode listed(AccountCall call) {
        int page = call.query().number("page", 1, 1, Integer.MAX_VALUE);
        int size = call.query().number("page_size", DEFAULT_PAGE_SIZE, 1, MAX_PAGE_SIZE);
        long total = api.owners().users().count();
        ObjectNode answer = Json.MAPPER.createObjectNode();
        ArrayNode users = answer.putArray("users");
        for (User user : api.owners().users().list(Page.of(page, size))) {
            users.add(OwnerViews.user(user, api.owners().members().ofUser(user.userId()).stream().map(TeamMember::teamId).toList()));
        }
        answer.put("total", total);
        answer.put("page", page);
        answer.put("page_size", size);
        answer.put("total_pages", (total + size - 1) / size);
        return answer;
    }

    private List<VirtualKey> userKeys(String userId) {
        List<VirtualKey> all = new ArrayList<>();
        for (int number = 1; ; number++) {
            List<VirtualKey> batch = api.keys().list(KeyFilter.user(userId), Page.of(number, Page.MAX_SIZE));
            all.addAll(batch);
            if (batch.size() < Page.MAX_SIZE) {
                return all;
            }
        }
    }

    private User find(String userId, String param) {
        return api.owners().users().findById(userId).orElseThrow(() -> userNotFound(userId, param));
    }

    static ApiError userNotFound(String userId, String param) {
        return new ApiError(404, "invalid_request_error", "User not found: no user has the id \"" + userId + "\".", param,
                "user_not_found");
    }
}
