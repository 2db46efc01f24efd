package dev.sluice.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.accounts.limits.Scope;
import dev.sluice.admin.AccountCalls.Access;
import dev.sluice.store.Organization;
import dev.sluice.store.Page;
import dev.sluice.store.StoreException;
import dev.sluice.store.Team;
import dev.sluice.wire.ApiError;
import dev.sluice.wire.Json;
import dev.sluice.wire.JsonFields;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * LiteLLM's organization API: {@code POST /organization/new}, {@code GET /organization/info},
 * {@code PATCH /organization/update}, {@code DELETE /organization/delete} and
 * {@code GET /organization/list}, with LiteLLM's methods, request and answer shapes. Master
 * key only. A team made or updated with an {@code organization_id} belongs to the
 * organization: the organization's models bound the team's keys, and its budget and limits
 * hold across all its teams' calls. An organization that still has teams is not deleted.
 */
public final class OrganizationAdminHandlers implements AccountHandlers {
    private static final Logger log = LoggerFactory.getLogger(OrganizationAdminHandlers.class);

    private final AccountApi api;
    private final AccountCalls calls;

    /** Create on the event loop whose requests it answers. */
    public OrganizationAdminHandlers(Vertx vertx, AccountApi api) {
        this.api = api;
        this.calls = new AccountCalls(vertx, api, "organizations");
    }

    public void create(HttpServerRequest request) {
        calls.answer(request, "/organization/new", Access.MASTER_KEY, this::created);
    }

    public void info(HttpServerRequest request) {
        calls.answer(request, "/organization/info", Access.MASTER_KEY, this::described);
    }

    public void update(HttpServerRequest request) {
        calls.answer(request, "/organization/update", Access.MASTER_KEY, this::updated);
    }

    public void delete(HttpServerRequest request) {
        calls.answer(request, "/organization/delete", Access.MASTER_KEY, this::deleted);
    }

    public void list(HttpServerRequest request) {
        calls.answer(request, "/organization/list", Access.MASTER_KEY, this::listed);
    }

    private JsonNode created(AccountCall call) {
        ObjectNode body = call.body();
        Instant now = api.clock().instant();
        String id = body.hasNonNull("organization_id")
                ? JsonFields.name(body.get("organization_id"), "organization_id") : UUID.randomUUID().toString();
        Organization.Builder builder = Organization.builder(id, now);
        OwnerSettings.organization(body, builder, now, api.clock().getZone());
        Organization organization = OwnerSettings.built("organization", builder::build);
        try {
            api.owners().organizations().insert(organization);
        } catch (StoreException e) {
            if (e.reason() == StoreException.Reason.CONFLICT) {
                throw new ApiError(409, "invalid_request_error", "Invalid 'organization_id': \"" + id
                        + "\" is already an organization's id (expected: a new id, or none to have one generated).",
                        "organization_id", "duplicate_organization_id");
            }
            throw e;
        }
        log.info("organizations.created organization={}", id);
        return OwnerViews.organization(organization);
    }

    private JsonNode described(AccountCall call) {
        String id = call.query().text("organization_id").orElseThrow(() -> JsonFields.missing("organization_id"));
        ObjectNode answer = OwnerViews.organization(find(id, "organization_id"));
        ArrayNode teams = answer.putArray("teams");
        teamsOf(id).forEach(team -> teams.add(TeamView.of(team)));
        return answer;
    }

    private JsonNode updated(AccountCall call) {
        ObjectNode body = call.body();
        String id = JsonFields.name(JsonFields.required(body, "organization_id"), "organization_id");
        Organization.Builder builder = find(id, "organization_id").toBuilder();
        OwnerSettings.organization(body, builder, api.clock().instant(), api.clock().getZone());
        Organization changed = OwnerSettings.built("organization", builder::build);
        if (!api.owners().organizations().update(changed)) {
            throw notFound(id, "organization_id");
        }
        call.written().owner(new Scope.Organization(id));
        log.info("organizations.updated organization={}", id);
        return OwnerViews.organization(api.owners().organizations().findById(id).orElse(changed));
    }

    private JsonNode deleted(AccountCall call) {
        List<String> ids = JsonFields.ids(JsonFields.required(call.body(), "organization_ids"), "organization_ids");
        if (ids.isEmpty()) {
            throw JsonFields.invalid("organization_ids", call.body().get("organization_ids"), "at least one organization id");
        }
        // All or none: an unknown id, or one that still has teams, stops the call before anything is deleted.
        for (String id : ids) {
            find(id, "organization_ids");
            if (!teamsOf(id).isEmpty()) {
                throw ApiError.invalidRequest("Organization \"" + id + "\" still has teams: delete them or move them to "
                        + "another organization first.", "organization_ids", "organization_has_teams");
            }
        }
        ArrayNode deleted = Json.MAPPER.createArrayNode();
        for (String id : ids) {
            api.owners().organizations().findById(id).ifPresent(organization -> deleted.add(OwnerViews.organization(organization)));
            api.owners().organizations().delete(id);
            call.written().owner(new Scope.Organization(id));
        }
        log.info("organizations.deleted count={}", ids.size());
        return deleted;
    }

    private JsonNode listed(AccountCall call) {
        ArrayNode organizations = Json.MAPPER.createArrayNode();
        for (int number = 1; ; number++) {
            List<Organization> batch = api.owners().organizations().list(Page.of(number, Page.MAX_SIZE));
            batch.forEach(organization -> organizations.add(OwnerViews.organization(organization)));
            if (batch.size() < Page.MAX_SIZE) {
                return organizations;
            }
        }
    }

    private List<Team> teamsOf(String id) {
        return api.teams().ofOrganization(id, Page.of(1, Page.MAX_SIZE));
    }

    private Organization find(String id, String param) {
        return api.owners().organizations().findById(id).orElseThrow(() -> notFound(id, param));
    }

    private static ApiError notFound(String id, String param) {
        return new ApiError(404, "invalid_request_error", "Organization not found: no organization has the id \"" + id + "\".",
                param, "organization_not_found");
    }
}
