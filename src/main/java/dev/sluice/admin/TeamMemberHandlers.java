package dev.sluice.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.accounts.limits.Scope;
import dev.sluice.admin.AccountCalls.Access;
import dev.sluice.store.Team;
import dev.sluice.store.TeamMember;
import dev.sluice.store.User;
import dev.sluice.wire.ApiError;
import dev.sluice.wire.Json;
import dev.sluice.wire.JsonFields;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * LiteLLM's team member API: {@code /team/member_add}, {@code /team/member_update} and
 * {@code /team/member_delete}, with LiteLLM's request and answer shapes. Master key only.
 */
public final class TeamMemberHandlers {
    private static final Logger log = LoggerFactory.getLogger(TeamMemberHandlers.class);

    private final AccountApi api;
    private final AccountCalls calls;
    private final TeamMembers members;

    /** Create on the event loop whose requests it answers. */
    public TeamMemberHandlers(Vertx vertx, AccountApi api) {
        this.api = api;
        this.calls = new AccountCalls(vertx, api, "teams");
        this.members = new TeamMembers(api);
    }

    /** {@code POST /team/member_add}: {@code member} is one member object or a list of them. */
    public void add(HttpServerRequest request) {
        calls.answer(request, "/team/member_add", Access.MASTER_KEY, this::added);
    }

    /** {@code POST /team/member_update}: a member's role and {@code max_budget_in_team}. */
    public void update(HttpServerRequest request) {
        calls.answer(request, "/team/member_update", Access.MASTER_KEY, this::updated);
    }

    /** {@code POST /team/member_delete}: the member named by {@code user_id} or {@code user_email} leaves the team. */
    public void delete(HttpServerRequest request) {
        calls.answer(request, "/team/member_delete", Access.MASTER_KEY, this::deleted);
    }

    private JsonNode added(AccountCall call) {
        ObjectNode body = call.body();
        Team team = team(body);
        Optional<BigDecimal> budget = budget(body);
        List<ObjectNode> added = TeamMembers.objects(JsonFields.required(body, "member"), "member");
        ArrayNode users = Json.MAPPER.createArrayNode();
        for (ObjectNode member : added) {
            User user = members.add(team.teamId(), member, "member", budget);
            call.written().owner(new Scope.TeamMember(team.teamId(), user.userId()));
            users.add(OwnerViews.user(user, api.owners().members().ofUser(user.userId()).stream().map(TeamMember::teamId).toList()));
        }
        log.info("teams.members_added team={} count={}", team.teamId(), added.size());
        ObjectNode answer = TeamView.of(team);
        members.show(team.teamId(), answer);
        answer.set("updated_users", users);
        answer.set("updated_team_memberships", answer.get("team_memberships").deepCopy());
        return answer;
    }

    private JsonNode updated(AccountCall call) {
        ObjectNode body = call.body();
        Team team = team(body);
        User user = members.user(body, "", false).orElseThrow(() -> notMember(team.teamId()));
        TeamMember current = api.owners().members().ofTeam(team.teamId()).stream()
                .filter(member -> member.userId().equals(user.userId())).findFirst()
                .orElseThrow(() -> notMember(team.teamId()));
        String role = current.role();
        if (body.hasNonNull("role")) {
            role = JsonFields.name(body.get("role"), "role");
            if (!TeamMember.ROLES.contains(role)) {
                throw JsonFields.invalid("role", body.get("role"), "admin or user");
            }
        }
        Optional<BigDecimal> budget = body.has("max_budget_in_team") ? budget(body) : current.maxBudgetInTeam();
        api.owners().members().put(new TeamMember(team.teamId(), user.userId(), role, budget, current.createdAt()));
        // The member's keys are read again, with its new budget in the team.
        call.written().owner(new Scope.TeamMember(team.teamId(), user.userId()));
        log.info("teams.member_updated team={} user={}", team.teamId(), user.userId());
        ObjectNode answer = Json.MAPPER.createObjectNode();
        answer.put("team_id", team.teamId());
        answer.put("user_id", user.userId());
        answer.put("user_email", user.userEmail().orElse(null));
        answer.put("role", role);
        answer.put("max_budget_in_team", budget.map(Dollars::shown).orElse(null));
        return answer;
    }

    private JsonNode deleted(AccountCall call) {
        ObjectNode body = call.body();
        Team team = team(body);
        User user = members.user(body, "", false).orElseThrow(() -> notMember(team.teamId()));
        if (!api.owners().members().delete(team.teamId(), user.userId())) {
            throw notMember(team.teamId());
        }
        call.written().owner(new Scope.TeamMember(team.teamId(), user.userId()));
        log.info("teams.member_deleted team={} user={}", team.teamId(), user.userId());
        ObjectNode answer = TeamView.of(team);
        members.show(team.teamId(), answer);
        return answer;
    }

    private Team team(ObjectNode body) {
        String teamId = JsonFields.name(JsonFields.required(body, "team_id"), "team_id");
        return api.teams().findById(teamId).orElseThrow(() -> new ApiError(404, "invalid_request_error",
                "Team not found: no team has the id \"" + teamId + "\".", "team_id", "team_not_found"));
    }

    private static Optional<BigDecimal> budget(ObjectNode body) {
        JsonNode value = body.get("max_budget_in_team");
        return value == null || value.isNull() ? Optional.empty() : Optional.of(JsonFields.dollars(value, "max_budget_in_team"));
    }

    private static ApiError notMember(String teamId) {
        return new ApiError(404, "invalid_request_error", "Member not found: the user is not a member of team \"" + teamId
                + "\".", "user_id", "team_member_not_found");
    }
}
