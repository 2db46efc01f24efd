package dev.sluice.admin;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.store.BudgetHolder;
import dev.sluice.store.Customer;
import dev.sluice.store.Organization;
import dev.sluice.store.TeamMember;
import dev.sluice.store.User;
import dev.sluice.wire.Json;
import java.util.List;

/**
 * Users, organizations, customers and team members as the account API shows them, in the
 * field names of LiteLLM's {@code LiteLLM_UserTable}, {@code LiteLLM_OrganizationTable},
 * {@code LiteLLM_EndUserTable} and {@code members_with_roles}. LiteLLM keeps the budget of an
 * organization or a customer in a budget table; Sluice shows it there
 * ({@code litellm_budget_table}) and at the top level both. Unset values are {@code null}.
 */
final class OwnerViews {
    private OwnerViews() {}

    static ObjectNode user(User user, List<String> teams) {
        ObjectNode view = Json.MAPPER.createObjectNode();
        view.put("user_id", user.userId());
        view.put("user_email", user.userEmail().orElse(null));
        view.put("user_role", user.userRole());
        budget(view, user);
        AccountFields.maxParallelRequests(view, user.limits());
        ArrayNode memberOf = view.putArray("teams");
        teams.forEach(memberOf::add);
        return withMetadataAndCreation(view, user);
    }

    static ObjectNode organization(Organization organization) {
        ObjectNode view = Json.MAPPER.createObjectNode();
        view.put("organization_id", organization.organizationId());
        view.put("organization_alias", organization.organizationAlias().orElse(null));
        budget(view, organization);
        view.set("litellm_budget_table", budgetTable(organization));
        return withMetadataAndCreation(view, organization);
    }

    static ObjectNode customer(Customer customer) {
        ObjectNode view = Json.MAPPER.createObjectNode();
        view.put("user_id", customer.userId());
        view.put("alias", customer.alias().orElse(null));
        view.put("spend", Dollars.shown(customer.budget().spend()));
        view.put("blocked", customer.blocked());
        view.set("allowed_model_region", customer.metadata().get("allowed_model_region"));
        view.set("default_model", customer.metadata().get("default_model"));
        AccountFields.maxBudget(view, customer.budget());
        AccountFields.period(view, customer.budget());
        view.set("litellm_budget_table", budgetTable(customer));
        return view;
    }

    /** A {@code members_with_roles} entry. */
    static ObjectNode member(TeamMember member, String userEmail) {
        ObjectNode view = Json.MAPPER.createObjectNode();
        view.put("user_id", member.userId());
        view.put("user_email", userEmail);
        view.put("role", member.role());
        return view;
    }

    /** A {@code team_memberships} entry: the member's spend and budget within the team. */
    static ObjectNode membership(TeamMember member) {
        ObjectNode view = Json.MAPPER.createObjectNode();
        view.put("user_id", member.userId());
        view.put("team_id", member.teamId());
        view.put("spend", Dollars.shown(member.spend()));
        view.putNull("budget_id");
        ObjectNode budget = view.putObject("litellm_budget_table");
        budget.put("max_budget", member.maxBudgetInTeam().map(Dollars::shown).orElse(null));
        return view;
    }

    private static void budget(ObjectNode view, BudgetHolder holder) {
        AccountFields.spendAndMax(view, holder.budget());
        ArrayNode models = view.putArray("models");
        holder.models().forEach(models::add);
        AccountFields.period(view, holder.budget());
        AccountFields.rateLimits(view, holder.limits());
    }

    /** The holder's {@code metadata} and {@code created_at}, the last fields of its view. */
    private static ObjectNode withMetadataAndCreation(ObjectNode view, BudgetHolder holder) {
        view.set("metadata", holder.metadata());
        view.put("created_at", holder.createdAt().toString());
        return view;
    }

    private static ObjectNode budgetTable(BudgetHolder holder) {
        ObjectNode table = Json.MAPPER.createObjectNode();
        AccountFields.maxBudget(table, holder.budget());
        table.put("budget_duration", holder.budget().budgetDuration().orElse(null));
        AccountFields.rateLimits(table, holder.limits());
        return table;
    }
}
