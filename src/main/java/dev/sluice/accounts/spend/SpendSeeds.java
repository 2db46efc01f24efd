package dev.sluice.accounts.spend;

import dev.sluice.accounts.KeyDirectory;
import dev.sluice.accounts.limits.Scope;
import dev.sluice.store.AccountBudget;
import dev.sluice.store.ModelBudget;
import dev.sluice.store.SpendRepository;
import dev.sluice.store.VirtualKey;
import dev.sluice.time.BudgetDuration;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Feeds the in-process spend counters from a key each time it is read from the store: the
 * key's, its team's, its user's and its organization's spend from their rows, raising this process's count to the store's
 * when the store has more (spend other replicas posted: budgets shared through the database
 * hold across replicas within a key refresh and a spend flush), and each of the key's
 * per-model budgets from the spend log and its daily rollups
 * ({@link SpendRepository#sumCostByKeyAndModelGroup}).
 *
 * <p>A per-model budget has no stored spend or reset time of its own: its spend is the sum of
 * the key's logged calls to that group. The first read seeds it with the sum over the last
 * period's length ({@code 30d}: the last 30 days; a month counts as 31 days, so nothing spent
 * in the period is missed), and its period starts when the counter does; the counter then
 * runs in process and resets on time. Each later read raises it to the sum over its current
 * period (from the seed's start while in the first), which brings in what other replicas
 * spent. Reads the store: runs on the thread that read the key ({@link KeyDirectory}'s).
 */
public final class SpendSeeds implements Consumer<KeyDirectory.Found> {
    private final SpendCounters counters;
    private final SpendRepository spendLog;
    /** How long the spend log keeps its rows: a sum reaching further back reads the daily rollups. */
    private final Duration retention;
    private final Clock clock;
    /** When the spend log sum a per-model counter was seeded with began. */
    private final Map<Scope.KeyModel, Instant> seededSince = new ConcurrentHashMap<>();

    public SpendSeeds(SpendCounters counters, SpendRepository spendLog, Duration retention, Clock clock) {
        this.counters = counters;
        this.spendLog = spendLog;
        this.retention = retention;
        this.clock = clock;
    }

    @Override
    public void accept(KeyDirectory.Found found) {
        VirtualKey key = found.key();
        counters.raiseTo(new Scope.Key(key.tokenHash()), stored(key.budget()));
        found.team().ifPresent(team -> counters.raiseTo(new Scope.Team(team.teamId()), stored(team.budget())));
        found.owners().user().ifPresent(user -> counters.raiseTo(new Scope.User(user.userId()), stored(user.budget())));
        // A member's budget in its team has no period: LiteLLM resets no membership's spend.
        found.owners().member().ifPresent(member -> counters.raiseTo(new Scope.TeamMember(member.teamId(), member.userId()),
                new StoredSpend(member.spend().doubleValue(), Optional.empty(), Optional.empty())));
        found.owners().organization().ifPresent(organization -> counters.raiseTo(
                new Scope.Organization(organization.organizationId()),
                stored(organization.budget())));
        for (Map.Entry<String, ModelBudget> budget : key.modelLimits().modelMaxBudget().entrySet()) {
            Scope.KeyModel scope = new Scope.KeyModel(key.tokenHash(), budget.getKey());
            Optional<BudgetDuration> period = budget.getValue().timePeriod().map(p -> BudgetDuration.parse("time_period", p));
            if (!counters.isSeeded(scope)) {
                Instant since = period.map(this::periodAgo).orElse(Instant.EPOCH);
                seededSince.put(scope, since);
                counters.seed(scope, new StoredSpend(sum(scope, since), period, Optional.empty()));
                continue;
            }
            // Calls to the group through other replicas reach this one through the spend log: the
            // period's logged spend raises this count each time the key is read again.
            Optional<Instant> since = counters.periodStart(scope).or(() -> Optional.ofNullable(seededSince.get(scope)));
            if (since.isPresent()) {
                counters.raiseTo(scope, new StoredSpend(sum(scope, since.get()), period, counters.resetAt(scope)));
            }
        }
    }

    private double sum(Scope.KeyModel scope, Instant since) {
        return spendLog.sumCostByKeyAndModelGroup(scope.keyId(), scope.modelGroup(), since,
                clock.instant().minus(retention)).doubleValue();
    }

    /** Seeds a customer's counter from its row, read when a call named it. */
    public void customer(dev.sluice.store.Customer customer) {
        counters.raiseTo(new Scope.EndUser(customer.userId()),
                stored(customer.budget()));
    }

    /** What an account's row says it has spent in which period, as the counters take it. */
    private static StoredSpend stored(AccountBudget budget) {
        Optional<BudgetDuration> period = budget.budgetDuration().map(d -> BudgetDuration.parse("budget_duration", d));
        return new StoredSpend(budget.spend().doubleValue(), period, budget.budgetResetAt());
    }

    private Instant periodAgo(BudgetDuration period) {
        Duration unit = switch (period.unit()) {
            case SECONDS -> Duration.ofSeconds(1);
            case MINUTES -> Duration.ofMinutes(1);
            case HOURS -> Duration.ofHours(1);
            case DAYS -> Duration.ofDays(1);
            case WEEKS -> Duration.ofDays(7);
            case MONTHS -> Duration.ofDays(31);
        };
        return clock.instant().minus(unit.multipliedBy(period.amount()));
    }
}
