package dev.sluice.accounts;

import dev.sluice.accounts.limits.BudgetCheck.Budget;
import dev.sluice.accounts.limits.LimitSubject;
import dev.sluice.accounts.limits.Limits;
import dev.sluice.accounts.limits.Scope;
import dev.sluice.accounts.spend.SpendCounters;
import dev.sluice.store.AccountBudget;
import dev.sluice.store.AccountLimits;
import dev.sluice.store.Customer;
import dev.sluice.store.ModelLimits;
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
        budget(new Scope.Key(key.tokenHash()), key.budget()).ifPresent(budgets::add);
        keyed.team().flatMap(team -> budget(new Scope.Team(team.teamId()), team.budget())).ifPresent(budgets::add);
        String model = modelBudgetName(key, called);
        Optional.ofNullable(key.modelLimits().modelMaxBudget().get(model))
                .ifPresent(limit -> budgets.add(budget(new Scope.KeyModel(key.tokenHash(), model), limit.budgetLimit().doubleValue())));
        keyed.owners().user().flatMap(user -> budget(new Scope.User(user.userId()), user.budget())).ifPresent(budgets::add);
        keyed.owners().member().ifPresent(member -> budgets.add(budget(new Scope.TeamMember(member.teamId(), member.userId()),
                member.maxBudget().doubleValue())));
        keyed.owners().organization()
                .flatMap(organization -> budget(new Scope.Organization(organization.organizationId()), organization.budget()))
                .ifPresent(budgets::add);
        budgets.addAll(of(customer));
        return budgets;
    }

    /** The customer's budget, for a call of any caller. */
    List<Budget> of(Optional<Customer> customer) {
        return customer.flatMap(c -> budget(new Scope.EndUser(c.userId()), c.budget())).map(List::of).orElse(List.of());
    }

    /** The budget an account sets, as {@code scope} checks it; empty when the account sets none. */
    private Optional<Budget> budget(Scope scope, AccountBudget account) {
        return account.maxBudget().map(max -> budget(scope, max.doubleValue()));
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
        return key.modelLimits().modelMaxBudget().containsKey(called.asked()) ? called.asked() : called.group();
    }

    /** The name a key's {@code model_rpm_limit} and {@code model_tpm_limit} entries for {@code called} are read under, as {@link #modelBudgetName}. */
    static String modelLimitName(VirtualKey key, CalledModel called) {
        ModelLimits limits = key.modelLimits();
        return limits.modelRpmLimit().containsKey(called.asked()) || limits.modelTpmLimit().containsKey(called.asked())
                ? called.asked() : called.group();
    }

    /** The rate limits of a key's call of {@code called} for {@code customer}. */
    static LimitSubject subject(Caller.Keyed keyed, CalledModel called, Optional<Customer> customer) {
        VirtualKey key = keyed.key();
        String group = modelLimitName(key, called);
        LimitSubject subject = LimitSubject.key(key.tokenHash(), limits(key.limits()));
        Long modelRpm = key.modelLimits().modelRpmLimit().get(group);
        Long modelTpm = key.modelLimits().modelTpmLimit().get(group);
        if (modelRpm != null || modelTpm != null) {
            subject = subject.withModel(group, new Limits(optional(modelRpm), optional(modelTpm), OptionalLong.empty()));
        }
        if (keyed.team().isPresent()) {
            var team = keyed.team().get();
            subject = subject.withTeam(team.teamId(), limits(team.limits()));
        }
        if (keyed.owners().user().isPresent()) {
            var user = keyed.owners().user().get();
            subject = subject.withOwner(new Scope.User(user.userId()), limits(user.limits()));
        }
        if (keyed.owners().organization().isPresent()) {
            var organization = keyed.owners().organization().get();
            subject = subject.withOwner(new Scope.Organization(organization.organizationId()), limits(organization.limits()));
        }
        if (customer.isPresent()) {
            subject = subject.withOwner(new Scope.EndUser(customer.get().userId()), limits(customer.get().limits()));
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
            keyed.key().owner().userId().ifPresent(user -> charged.add(new Scope.User(user)));
            keyed.team().ifPresent(team -> keyed.key().owner().userId().ifPresent(user ->
                    charged.add(new Scope.TeamMember(team.teamId(), user))));
            keyed.owners().organization().ifPresent(organization ->
                    charged.add(new Scope.Organization(organization.organizationId())));
        }
        endUser.ifPresent(customer -> charged.add(new Scope.EndUser(customer)));
        return charged;
    }

    /** The rate limits an account sets, as the limiter counts them. */
    private static Limits limits(AccountLimits account) {
        OptionalInt parallel = account.maxParallelRequests();
        return new Limits(account.rpmLimit(), account.tpmLimit(),
                parallel.isPresent() ? OptionalLong.of(parallel.getAsInt()) : OptionalLong.empty());
    }

    private static OptionalLong optional(Long value) {
        return value == null ? OptionalLong.empty() : OptionalLong.of(value);
    }
}
