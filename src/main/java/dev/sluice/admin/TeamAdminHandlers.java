package dev.sluice.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.accounts.Caller;
import dev.sluice.accounts.settings.TeamSettings;
import dev.sluice.admin.AccountCalls.Access;
import dev.sluice.store.KeyFilter;
import dev.sluice.store.Page;
import dev.sluice.store.StoreException;
import dev.sluice.store.Team;
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
 * LiteLLM's team management API: {@code /team/new}, {@code /team/info},
 * {@code /team/update}, {@code /team/delete} and {@code /team/list}, with LiteLLM's
 * request and answer shapes. Master key only, except that a key of a team may read the
 * team's {@code /team/info}. A team made with {@code members_with_roles} has those members
 * ({@link TeamMemberHandlers} changes them later); one made with {@code organization_id}
 * belongs to that organization.
 *
 * <p>As in LiteLLM, deleting a team deletes its keys: a key left behind would keep
 * calling without the team's budget and limits.
 */
public final class TeamAdminHandlers {
    private static final Logger log = LoggerFactory.getLogger(TeamAdminHandlers.class);
    /** Rows read per store query when a whole listing is wanted. */
    private static final int BATCH = Page.MAX_SIZE;

    private final AccountApi api;
    private final AccountCalls calls;
    private final TeamMembers members;

    /** Create on the event loop whose requests it answers. */
    public TeamAdminHandlers(Vertx vertx, AccountApi api) {
        this.api = api;
        this.calls = new AccountCalls(vertx, api, "teams");
        this.members = new TeamMembers(api);
    }

    /** {@code POST /team/new}: a new team; its id is generated when the body has none. */
    public void create(HttpServerRequest request) {
        calls.answer(request, "/team/new", Access.MASTER_KEY, this::created);
    }

    /** {@code GET /team/info?team_id=}: a team, its members and its keys; a key of the team may ask about it. */
    public void info(HttpServerRequest request) {
        calls.answer(request, "/team/info", Access.MASTER_KEY_OR_OWN_KEY, this::described);
    }

    /** {@code POST /team/update}: changes the settings the body holds, leaving the others. */
    public void update(HttpServerRequest request) {
        calls.answer(request, "/team/update", Access.MASTER_KEY, this::updated);
    }

    /** {@code POST /team/delete}: deletes teams and their keys, all or (when one is unknown) none. */
    public void delete(HttpServerRequest request) {
        calls.answer(request, "/team/delete", Access.MASTER_KEY, this::deleted);
    }

    /** {@code GET /team/list}: every team, oldest first. */
    public void list(HttpServerRequest request) {
        calls.answer(request, "/team/list", Access.MASTER_KEY, this::listed);
    }

    private JsonNode created(AccountCall call) {
        ObjectNode body = call.body();
        Instant now = api.clock().instant();
        String teamId = body.hasNonNull("team_id") ? JsonFields.name(body.get("team_id"), "team_id") : UUID.randomUUID().toString();
        Team.Builder builder = Team.builder(teamId, now);
        TeamSettings.apply(body, builder, now, api.clock().getZone());
        builder.organizationId(organization(body).orElse(null));
        Team team = TeamSettings.build(builder);
        List<ObjectNode> withRoles = body.hasNonNull("members_with_roles")
                ? TeamMembers.objects(body.get("members_with_roles"), "members_with_roles") : List.of();
        try {
            api.teams().insert(team);
        } catch (StoreException e) {
            if (e.reason() == StoreException.Reason.CONFLICT) {
                throw new ApiError(409, "invalid_request_error", "Invalid 'team_id': \"" + teamId
                        + "\" is already a team's id (expected: a new id, or none to have one generated).", "team_id",
                        "duplicate_team_id");
            }
            throw e;
        }
        for (int i = 0; i < withRoles.size(); i++) {
            members.add(teamId, withRoles.get(i), "members_with_roles[" + i + "]", java.util.Optional.empty());
        }
        call.written().team(teamId);
        log.info("teams.created team={} members={}", teamId, withRoles.size());
        ObjectNode answer = TeamView.of(team);
        members.show(teamId, answer);
        return answer;
    }

    private JsonNode described(AccountCall call) {
        String teamId = askedTeam(call);
        Team team = find(teamId, "team_id");
        ObjectNode answer = Json.MAPPER.createObjectNode().put("team_id", teamId);
        ObjectNode info = TeamView.of(team);
        members.show(teamId, info);
        answer.set("team_info", info);
        ArrayNode keys = answer.putArray("keys");
        for (int number = 1; ; number++) {
            List<VirtualKey> batch = keyBatch(teamId, number);
            batch.forEach(key -> keys.add(KeyView.of(key)));
            if (batch.size() < BATCH) {
                return answer;
            }
        }
    }

    private JsonNode updated(AccountCall call) {
        ObjectNode body = call.body();
        String teamId = JsonFields.name(JsonFields.required(body, "team_id"), "team_id");
        Team existing = find(teamId, "team_id");
        Team.Builder builder = existing.toBuilder();
        TeamSettings.apply(body, builder, api.clock().instant(), api.clock().getZone());
        if (body.has("organization_id")) {
            builder.organizationId(organization(body).orElse(null));
        }
        Team changed = TeamSettings.build(builder);
        if (!api.teams().update(changed)) {
            throw teamNotFound(teamId, "team_id");
        }
        call.written().team(teamId);
        log.info("teams.updated team={}", teamId);
        ObjectNode answer = Json.MAPPER.createObjectNode().put("team_id", teamId);
        // Read back: the answer shows the spend as it is now, which an update never writes.
        answer.set("data", TeamView.of(api.teams().findById(teamId).orElse(changed)));
        return answer;
    }

    private JsonNode deleted(AccountCall call) {
        List<String> teamIds = JsonFields.ids(JsonFields.required(call.body(), "team_ids"), "team_ids");
        if (teamIds.isEmpty()) {
            throw JsonFields.invalid("team_ids", call.body().get("team_ids"), "at least one team id");
        }
        // All or none: an unknown id stops the call before anything is deleted.
        for (String teamId : teamIds) {
            find(teamId, "team_ids");
        }
        List<String> deletedKeys = new ArrayList<>();
        for (String teamId : teamIds) {
            deletedKeys.addAll(deleteKeys(teamId, call.written()));
            api.owners().members().deleteAll("team_id", teamId);
            if (api.teams().delete(teamId)) {
                call.written().team(teamId);
            }
        }
        log.info("teams.deleted teams={} keys={}", teamIds.size(), deletedKeys.size());
        ObjectNode answer = Json.MAPPER.createObjectNode();
        teamIds.forEach(answer.putArray("deleted_teams")::add);
        deletedKeys.forEach(answer.putArray("deleted_keys")::add);
        return answer;
    }

    private JsonNode listed(AccountCall call) {
        ArrayNode teams = Json.MAPPER.createArrayNode();
        for (int number = 1; ; number++) {
            List<Team> batch = api.teams().list(Page.of(number, BATCH));
            batch.forEach(team -> teams.add(TeamView.of(team)));
            if (batch.size() < BATCH) {
                return teams;
            }
        }
    }

    /** The team's keys, deleted batch by batch; returns their tokens. */
    private List<String> deleteKeys(String teamId, WrittenAccounts written) {
        List<String> tokens = new ArrayList<>();
        while (true) {
            // Always the first batch: the keys deleted in the previous pass are gone from it.
            List<VirtualKey> batch = keyBatch(teamId, 1);
            int before = tokens.size();
            for (VirtualKey key : batch) {
                if (api.keys().delete(key.tokenHash())) {
                    written.key(key.tokenHash());
                    tokens.add(key.tokenHash());
                }
            }
            if (batch.size() < BATCH || tokens.size() == before) {
                return tokens;
            }
        }
    }

    private List<VirtualKey> keyBatch(String teamId, int number) {
        return api.keys().list(KeyFilter.team(teamId), Page.of(number, BATCH));
    }

    /** The team asked about: a virtual key may ask only about its own team, and names it by default. */
    private static String askedTeam(AccountCall call) {
        Optional<String> asked = call.query().text("team_id");
        if (!(call.caller() instanceof Caller.Keyed keyed)) {
            return asked.orElseThrow(() -> JsonFields.missing("team_id"));
        }
        Optional<String> own = keyed.key().owner().teamId();
        if (own.isEmpty() || asked.filter(id -> !id.equals(own.get())).isPresent()) {
            throw new ApiError(403, "permission_error", "A virtual key may read only the /team/info of its own team; "
                    + keyed.label() + (own.isEmpty() ? " belongs to no team." : " asked about another team."), "team_id",
                    "permission_error");
        }
        return own.get();
    }

    /** The body's {@code organization_id}, which must name a stored organization; empty for null. */
    private Optional<String> organization(ObjectNode body) {
        JsonNode value = body.get("organization_id");
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        String id = JsonFields.name(value, "organization_id");
        if (api.owners().organizations().findById(id).isEmpty()) {
            throw ApiError.invalidRequest("Invalid 'organization_id': no organization has the id \"" + id
                    + "\" (expected: the id of an organization made with /organization/new).", "organization_id",
                    "organization_not_found");
        }
        return Optional.of(id);
    }

    private Team find(String teamId, String param) {
        return api.teams().findById(teamId).orElseThrow(() -> teamNotFound(teamId, param));
    }

    private static ApiError teamNotFound(String teamId, String param) {
        return new ApiError(404, "invalid_request_error", "Team not found: no team has the id \"" + teamId + "\".", param,
                "team_not_found");
    }
}
