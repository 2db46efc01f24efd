package dev.sluice.admin;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.accounts.AccountTimes;
import dev.sluice.store.BudgetHolder;
import dev.sluice.store.Customer;
import dev.sluice.store.Organization;
import dev.sluice.store.User;
import dev.sluice.wire.ApiError;
import dev.sluice.wire.JsonFields;
import java.time.Instant;
import java.time.ZoneId;
import java.util.function.Supplier;

/**
 * The settings of users, organizations and customers that their {@code /new} and
 * {@code /update} routes take, in LiteLLM's field names, read from a body onto a builder. Only
 * fields present change; {@code null} clears one. Fields LiteLLM has and Sluice does not act
 * on are ignored, as LiteLLM ignores fields it does not know.
 */
final class OwnerSettings {
    private OwnerSettings() {}

    /**
     * The budget and rate-limit fields every account has, keys included: {@code max_budget},
     * {@code budget_duration} (setting it starts a new period now), {@code rpm_limit},
     * {@code tpm_limit}, read in that order.
     */
    static <B extends BudgetHolder.Builder<B>> void budget(ObjectNode body, B holder, Instant now, ZoneId zone) {
        JsonFields.ifPresent(body, "max_budget", JsonFields::dollars, holder::maxBudget);
        JsonFields.ifPresent(body, "budget_duration", JsonFields::duration, period -> {
            holder.budgetDuration(period == null ? null : period.toString());
            holder.budgetResetAt(period == null ? null
                    : AccountTimes.nextReset(period, now, zone, "budget_duration", body.get("budget_duration")));
        });
        JsonFields.ifPresent(body, "rpm_limit", JsonFields::count, holder::rpmLimit);
        JsonFields.ifPresent(body, "tpm_limit", JsonFields::count, holder::tpmLimit);
    }

    /** {@link #budget}, then the owner's {@code metadata}. */
    private static <B extends BudgetHolder.Builder<B>> void budgetAndMetadata(ObjectNode body, B holder, Instant now,
            ZoneId zone) {
        budget(body, holder, now, zone);
        JsonFields.ifPresent(body, "metadata", JsonFields::object, holder::metadata);
    }

    static void user(ObjectNode body, User.Builder user, Instant now, ZoneId zone) {
        budgetAndMetadata(body, user, now, zone);
        JsonFields.ifPresent(body, "models", JsonFields::names, user::models);
        JsonFields.ifPresent(body, "user_email", JsonFields::name, user::userEmail);
        JsonFields.ifPresent(body, "user_role", OwnerSettings::role, user::userRole);
        JsonFields.ifPresent(body, "max_parallel_requests", JsonFields::smallCount, user::maxParallelRequests);
    }

    static void organization(ObjectNode body, Organization.Builder organization, Instant now, ZoneId zone) {
        budgetAndMetadata(body, organization, now, zone);
        JsonFields.ifPresent(body, "models", JsonFields::names, organization::models);
        JsonFields.ifPresent(body, "organization_alias", JsonFields::name, organization::organizationAlias);
    }

    /** A customer's settings; {@code default_model} and {@code allowed_model_region} are kept in its metadata, not acted on. */
    static void customer(ObjectNode body, Customer.Builder customer, Instant now, ZoneId zone) {
        budgetAndMetadata(body, customer, now, zone);
        JsonFields.ifPresent(body, "alias", JsonFields::name, customer::alias);
        JsonFields.ifPresent(body, "blocked", JsonFields::bool, blocked -> customer.blocked(blocked != null && blocked));
    }

    private static String role(com.fasterxml.jackson.databind.JsonNode value, String path) {
        String role = JsonFields.name(value, path);
        if (!User.ROLES.contains(role)) {
            throw JsonFields.invalid(path, value, "one of proxy_admin, proxy_admin_viewer, internal_user, internal_user_viewer");
        }
        return role;
    }

    /** Builds the record; a rule broken here is still the request's fault, answered as a 400. */
    static <T> T built(String noun, Supplier<T> build) {
        try {
            return build.get();
        } catch (IllegalArgumentException e) {
            throw ApiError.invalidRequest("The " + noun + " is not valid: " + e.getMessage() + ".", null, "invalid_value");
        }
    }
}
