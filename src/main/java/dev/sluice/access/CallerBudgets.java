package dev.sluice.access;

import dev.sluice.limits.BudgetCheck.Budget;
import dev.sluice.limits.LimitSubject;
import dev.sluice.limits.Limits;
import dev.sluice.limits.Scope;
import dev.sluice.spend.SpendCounters;
import dev.sluice.store.Customer;
import dev.sluice.store.VirtualKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * The budgets and rate limits a call is under, at every level it belongs to: its key, its
 * team, the key's budget for the group, the key's user, the user within the team, the team's
 * organization, and the customer the call names. Budgets are listed in that order, the order the first one reached
 * is reported in; the spend of each is read from the in-process counters.
 */
final class CallerBudgets {
    private final SpendCounters counters;

    CallerBudgets(SpendCounters counters) {
        this.counters = counters;
    }

    /** The budgets of a key's call of {@code called} for {@code customer}, with what each has spent. */
    List<Budget> of(Caller.Keyed keyed, CalledModel called, Optional<Customer> customer) {
        List<Budget> budgets = new ArrayList<>(7);
        VirtualKey key = keyed.key();
        key.maxBudget().ifPresent(max -> budgets.add(budget(new Scope.Key(key.tokenHash()), max.doubleValue())));
        keyed.team().flatMap(team -> team.maxBudget().map(max -> budget(new Scope.Team(team.teamId()), max.doubleValue())))
                .ifPresent(budgets::add);
        String model = modelBudgetName(key, called);
        Optional.ofNullable(key.modelMaxBudget().get(model))
                .ifPresent(limit -> budgets.add(budget(new Scope.KeyModel(key.tokenHash(), model), limit.budgetLimit().doubleValue())));
        keyed.owners().user().flatMap(user -> user.maxBudget().map(max -> budget(new Scope.User(user.userId()), max.doubleValue())))
                .ifPresent(budgets::add);
        keyed.owners().member().ifPresent(member -> budgets.add(budget(new Scope.TeamMember(member.teamId(), member.userId()),
                member.maxBudget().doubleValue())));
        keyed.owners().organization().flatMap(organization -> organization.maxBudget()
                        .map(max -> budget(new Scope.Organization(organization.organizationId()), max.doubleValue())))
                .ifPresent(budgets::add);
        budgets.addAll(of(customer));
        return budgets;
    }

    /** The customer's budget, for a call of any caller. */
    List<Budget> of(Optional<Customer> customer) {
        return customer.flatMap(c -> c.maxBudget().map(max -> budget(new Scope.EndUser(c.userId()), max.doubleValue())))
                .map(List::of).orElse(List.of());
    }

    private Budget budget(Scope scope, double maxBudget) {
        return new Budget(scope, maxBudget, counters.current(scope));
    }

    /**
     * The name a key's {@code model_max_budget} entry for {@code called} is read and counted
     * under: the name the request asked for when the key budgets that name (a model a wildcard
     * group serves, or an alias), else the serving group's. LiteLLM keys these budgets by the
     * model the request named; the group's name keeps budgets written for the group working.
     */
    static String modelBudgetName(VirtualKey key, CalledModel called) {
        return key.modelMaxBudget().containsKey(called.asked()) ? called.asked() : called.group();
    }

    /** The name a key's {@code model_rpm_limit} and {@code model_tpm_limit} entries for {@code called} are read under, as {@link #modelBudgetName}. */
    static String modelLimitName(VirtualKey key, CalledModel called) {
        return key.modelRpmLimit().containsKey(called.asked()) || key.modelTpmLimit().containsKey(called.asked())
                ? called.asked() : called.group();
    }

    /** The rate limits of a key's call of {@code called} for {@code customer}. */
    static LimitSubject subject(Caller.Keyed keyed, CalledModel called, Optional<Customer> customer) {
        VirtualKey key = keyed.key();
        String group = modelLimitName(key, called);
        LimitSubject subject = LimitSubject.key(key.tokenHash(),
                new Limits(key.rpmLimit(), key.tpmLimit(), widen(key.maxParallelRequests())));
        Long modelRpm = key.modelRpmLimit().get(group);
        Long modelTpm = key.modelTpmLimit().get(group);
        if (modelRpm != null || modelTpm != null) {
            subject = subject.withModel(group, new Limits(optional(modelRpm), optional(modelTpm), OptionalLong.empty()));
        }
        if (keyed.team().isPresent()) {
            var team = keyed.team().get();
            subject = subject.withTeam(team.teamId(), new Limits(team.rpmLimit(), team.tpmLimit(), OptionalLong.empty()));
        }
        if (keyed.owners().user().isPresent()) {
            var user = keyed.owners().user().get();
            subject = subject.withOwner(new Scope.User(user.userId()),
                    new Limits(user.rpmLimit(), user.tpmLimit(), widen(user.maxParallelRequests())));
        }
        if (keyed.owners().organization().isPresent()) {
            var organization = keyed.owners().organization().get();
            subject = subject.withOwner(new Scope.Organization(organization.organizationId()),
                    new Limits(organization.rpmLimit(), organization.tpmLimit(), OptionalLong.empty()));
        }
        if (customer.isPresent()) {
            subject = subject.withOwner(new Scope.EndUser(customer.get().userId()),
                    new Limits(customer.get().rpmLimit(), customer.get().tpmLimit(), OptionalLong.empty()));
        }
        return subject;
    }

    /**
     * The scopes a finished call's cost is counted for; {@code group} is the served group, or
     * the name the key's per-model budget of the asked group is counted under.
     */
    static List<Scope> charged(Caller caller, String group, Optional<String> endUser) {
        List<Scope> charged = new ArrayList<>(7);
        if (caller instanceof Caller.Keyed keyed) {
            charged.add(new Scope.Key(keyed.keyHash()));
            keyed.team().ifPresent(team -> charged.add(new Scope.Team(team.teamId())));
            charged.add(new Scope.KeyModel(keyed.keyHash(), group));
            keyed.key().userId().ifPresent(user -> charged.add(new Scope.User(user)));
            keyed.team().ifPresent(team -> keyed.key().userId().ifPresent(user ->
                    charged.add(new Scope.TeamMember(team.teamId(), user))));
            keyed.owners().organization().ifPresent(organization ->
                    charged.add(new Scope.Organization(organization.organizationId())));
        }
        endUser.ifPresent(customer -> charged.add(new Scope.EndUser(customer)));
        return charged;
    }

    private static OptionalLong widen(OptionalInt value) {
        return value.isPresent() ? OptionalLong.of(value.getAsInt()) : OptionalLong.empty();
    }

    private static OptionalLong optional(Long value) {
        return value == null ? OptionalLong.empty() : OptionalLong.of(value);
    }
}
