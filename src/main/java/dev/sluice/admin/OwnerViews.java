package dev.sluice.admin;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.json.Json;
import dev.sluice.store.BudgetHolder;
import dev.sluice.store.Customer;
import dev.sluice.store.Organization;
import dev.sluice.store.TeamMember;
import dev.sluice.store.User;
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
        if (user.limits().maxParallelRequests().isPresent()) {
            view.put("max_parallel_requests", user.limits().maxParallelRequests().getAsInt());
        } else {
            view.putNull("max_parallel_requests");
        }
        ArrayNode memberOf = view.putArray("teams");
        teams.forEach(memberOf::add);
        view.set("metadata", user.metadata());
        view.put("created_at", user.createdAt().toString());
        return view;
    }

    static ObjectNode organization(Organization organization) {
        ObjectNode view = Json.MAPPER.createObjectNode();
        view.put("organization_id", organization.organizationId());
        view.put("organization_alias", organization.organizationAlias().orElse(null));
        budget(view, organization);
        view.set("litellm_budget_table", budgetTable(organization));
        view.set("metadata", organization.metadata());
        view.put("created_at", organization.createdAt().toString());
        return view;
    }

    static ObjectNode customer(Customer customer) {
        ObjectNode view = Json.MAPPER.createObjectNode();
        view.put("user_id", customer.userId());
        view.put("alias", customer.alias().orElse(null));
        view.put("spend", Dollars.shown(customer.budget().spend()));
        view.put("blocked", customer.blocked());
        view.set("allowed_model_region", customer.metadata().get("allowed_model_region"));
        view.set("default_model", customer.metadata().get("default_model"));
        view.put("max_budget", customer.budget().maxBudget().map(Dollars::shown).orElse(null));
        view.put("budget_duration", customer.budget().budgetDuration().orElse(null));
        view.put("budget_reset_at", KeyView.time(customer.budget().budgetResetAt()));
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
        view.put("spend", Dollars.shown(holder.budget().spend()));
        view.put("max_budget", holder.budget().maxBudget().map(Dollars::shown).orElse(null));
        ArrayNode models = view.putArray("models");
        holder.models().forEach(models::add);
        view.put("budget_duration", holder.budget().budgetDuration().orElse(null));
        view.put("budget_reset_at", KeyView.time(holder.budget().budgetResetAt()));
        limits(view, holder);
    }

    private static ObjectNode budgetTable(BudgetHolder holder) {
        ObjectNode table = Json.MAPPER.createObjectNode();
        table.put("max_budget", holder.budget().maxBudget().map(Dollars::shown).orElse(null));
        table.put("budget_duration", holder.budget().budgetDuration().orElse(null));
        limits(table, holder);
        return table;
    }

    private static void limits(ObjectNode view, BudgetHolder holder) {
        if (holder.limits().tpmLimit().isPresent()) {
            view.put("tpm_limit", holder.limits().tpmLimit().getAsLong());
        } else {
            view.putNull("tpm_limit");
        }
        if (holder.limits().rpmLimit().isPresent()) {
            view.put("rpm_limit", holder.limits().rpmLimit().getAsLong());
        } else {
            view.putNull("rpm_limit");
        }
    }
}
