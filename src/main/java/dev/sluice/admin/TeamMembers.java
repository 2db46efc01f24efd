package dev.sluice.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.store.StoreException;
import dev.sluice.store.TeamMember;
import dev.sluice.store.User;
import dev.sluice.wire.ApiError;
import dev.sluice.wire.JsonFields;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Team members as the team API reads and shows them: a member object
 * ({@code {"role": "admin"|"user", "user_id": ..., "user_email": ...}}) names a user by id or
 * by email. As in LiteLLM, a user not stored yet is made (with no key) when it is added to a
 * team; one named only by an email gets a generated id.
 */
final class TeamMembers {
    private final AccountApi api;

    TeamMembers(AccountApi api) {
        this.api = api;
    }

    /** The members a {@code member} field or {@code members_with_roles} holds: one object, or a list of them. */
    static List<ObjectNode> objects(JsonNode value, String path) {
        List<ObjectNode> members = new ArrayList<>();
        if (value instanceof ArrayNode list) {
            for (int i = 0; i < list.size(); i++) {
                members.add(JsonFields.object(list.get(i), path + "[" + i + "]"));
            }
        } else {
            members.add(JsonFields.object(value, path));
        }
        return members;
    }

    /** Adds (or re-roles) the member {@code member} describes in {@code teamId}; returns the stored user. */
    User add(String teamId, ObjectNode member, String path, Optional<BigDecimal> maxBudgetInTeam) {
        String role = member.hasNonNull("role") ? JsonFields.name(member.get("role"), path + ".role") : "user";
        if (!TeamMember.ROLES.contains(role)) {
            throw JsonFields.invalid(path + ".role", member.get("role"), "admin or user");
        }
        User user = user(member, path, true).orElseThrow();
        api.owners().members().put(new TeamMember(teamId, user.userId(), role, maxBudgetInTeam, api.clock().instant()));
        return user;
    }

    /**
     * The user a member object (or a {@code member_update}/{@code member_delete} body) names,
     * by {@code user_id} first, else by {@code user_email}; made when {@code create} and absent.
     */
    Optional<User> user(ObjectNode member, String path, boolean create) {
        String prefix = path.isEmpty() ? "" : path + ".";
        Optional<String> userId = member.hasNonNull("user_id")
                ? Optional.of(JsonFields.name(member.get("user_id"), prefix + "user_id")) : Optional.empty();
        Optional<String> email = member.hasNonNull("user_email")
                ? Optional.of(JsonFields.name(member.get("user_email"), prefix + "user_email")) : Optional.empty();
        if (userId.isEmpty() && email.isEmpty()) {
            throw ApiError.invalidRequest("Give the member's 'user_id' or 'user_email'" + (path.isEmpty() ? "" : " in '"
                    + path + "'") + ".", prefix + "user_id", "missing_required_parameter");
        }
        Optional<User> found = userId.isPresent()
                ? api.owners().users().findById(userId.get())
                : api.owners().users().findByEmail(email.get());
        if (found.isPresent() || !create) {
            return found;
        }
        Instant now = api.clock().instant();
        User made = User.builder(userId.orElseGet(() -> UUID.randomUUID().toString()), now)
                .userEmail(email.orElse(null)).build();
        try {
            api.owners().users().insert(made);
        } catch (StoreException e) {
            if (e.reason() != StoreException.Reason.CONFLICT) {
                throw e;
            }
            // Made meanwhile by another call: use that one.
            return api.owners().users().findById(made.userId());
        }
        return Optional.of(made);
    }

    /** The team's {@code members_with_roles} and {@code team_memberships}, onto {@code view}. */
    void show(String teamId, ObjectNode view) {
        ArrayNode withRoles = view.putArray("members_with_roles");
        ArrayNode memberships = view.putArray("team_memberships");
        for (TeamMember member : api.owners().members().ofTeam(teamId)) {
            String email = api.owners().users().findById(member.userId()).flatMap(User::userEmail).orElse(null);
            withRoles.add(OwnerViews.member(member, email));
            memberships.add(OwnerViews.membership(member));
        }
    }
}
