package dev.sluice.accounts;

import dev.sluice.accounts.limits.BudgetHold;
import dev.sluice.accounts.limits.Permit;
import dev.sluice.accounts.spend.CallCost;
import dev.sluice.accounts.spend.OutputTokenAverages;
import dev.sluice.accounts.spend.SpendCounters;
import dev.sluice.accounts.spend.SpendRecorder;
import dev.sluice.config.Deployment;
import dev.sluice.store.Money;
import dev.sluice.store.SpendRow;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An admitted call's place in the caller's limits and budgets, from admission to its end.
 * {@link #finish} ends it once, however the call ended: the cost is counted where the very
 * next request's checks see it, the rate-limit permit is released with the tokens used, and
 * the spend row goes to the store. Later calls of {@link #finish} change nothing.
 */
public final class CallTicket {
    private static final Logger log = LoggerFactory.getLogger(CallTicket.class);

    private final Caller caller;
    private final String callId;
    private final String requestedGroup;
    /** What the caller asked for: its per-model budget is counted under the name it was read under. */
    private final CalledModel called;
    private final List<String> tags;
    private final Permit permit;
    private final Map<String, String> headers;
    private final Instant startedAt;
    private final long startedNanos;
    private final Optional<String> endUser;
    private final Accounting accounting;
    private final AtomicBoolean finished = new AtomicBoolean();
    /** What the call holds of its budgets; a call under none only counts its cost. */
    private BudgetHold hold;
    /** The response cache's key for the call; null when the cache was not asked. */
    private volatile String cacheKey;
    /**
     * Whether the call's end user is a stored customer, whose budget counts the call. Any other
     * {@code user} a caller sends is only written in the spend row: counting each in memory
     * would let callers grow the counters without bound, one made-up name at a time.
     */
    private boolean storedCustomer;

    /**
     * What every ticket shares: how a cost is worked out and where it is counted and logged, and
     * where the output tokens of answered calls go to size later calls' budget holds.
     */
    record Accounting(CallCost cost, SpendCounters counters, SpendRecorder spend, LongSupplier nanoTime,
            OutputTokenAverages outputs) {}

    /**
     * Who made the call and when it was admitted.
     *
     * @param called         the model the caller asked for and the group serving it
     * @param startedAt      the wall-clock instant, for the spend row
     * @param startedNanos   the ticker's reading, for the call's duration
     * @param endUser        the customer the call was made for (its body's {@code user})
     */
    record Start(Caller caller, String callId, CalledModel called, List<String> tags, Instant startedAt, long startedNanos,
            Optional<String> endUser) {}

    /**
     * @param permit  the caller's place among its parallel calls, released when the call ends; null when it has no such limit
     * @param headers the {@code x-ratelimit-*} headers of the caller's limits as they stood at admission
     */
    CallTicket(Start start, Permit permit, Map<String, String> headers, Accounting accounting) {
        this.caller = start.caller();
        this.callId = start.callId();
        this.called = start.called();
        this.requestedGroup = called.group();
        this.tags = start.tags();
        this.permit = permit;
        this.headers = Map.copyOf(headers);
        this.startedAt = start.startedAt();
        this.startedNanos = start.startedNanos();
        this.endUser = start.endUser();
        this.accounting = accounting;
        this.hold = accounting.counters()::addAll;
    }

    /** This ticket, its end user being a stored customer whose spend is counted. */
    CallTicket forStoredCustomer() {
        this.storedCustomer = true;
        return this;
    }

    /** This ticket, holding {@code hold} of the caller's budgets until it is finished. */
    CallTicket holding(BudgetHold hold) {
        this.hold = hold;
        return this;
    }

    /** The call's tags, as its spend row keeps them. */
    public List<String> tags() {
        return tags;
    }

    /** The {@code x-ratelimit-*} headers of the caller's limits as they stood when the call was admitted. */
    public Map<String, String> headers() {
        return headers;
    }

    /**
     * Whether the tokens of an answer of {@code deployment} matter: for its spend row, or for
     * its cost. When neither (no store, and no known price) an answer without usage is not
     * counted: counting costs more than the rest of the call.
     */
    public boolean needsTokens(Deployment deployment) {
        return accounting.spend().keepsRows() || accounting.cost().priced(deployment);
    }

    /** Whether calls of {@code deployment} have a price of their own (its config's or the catalog's). */
    public boolean priced(Deployment deployment) {
        return accounting.cost().priced(deployment);
    }

    /** The deployment a call of {@code deployment} is charged as, its answer having named {@code answeredModel}: see {@link CallCost#chargedAs}. */
    public Deployment chargedAs(Deployment deployment, String answeredModel) {
        return accounting.cost().chargedAs(deployment, answeredModel);
    }

    /** What {@code end} costs, in US dollars, without ending the call. */
    public double price(CallEnd end) {
        return end.deployment()
                .map(d -> accounting.cost().of(d, end.usage(), end.units()).dollars())
                .orElse(0.0);
    }

    /**
     * Ends the call and returns its cost in US dollars (0 when nothing served it, or the
     * deployment has no known price). The second and later calls return -1 and change nothing.
     */
    public double finish(CallEnd end) {
        return finish(end, false);
    }

    /**
     * Ends a call answered from the response cache under {@code cacheKey}: it costs nothing,
     * and its spend row is marked as a hit.
     */
    public void finishFromCache(CallEnd end) {
        finish(end, true);
    }

    /** The response cache's key for the call, for its spend row: the entry it is answered from or stored under. */
    public void cacheKey(String key) {
        this.cacheKey = key;
    }

    /**
     * The name the per-model spend of a call served by {@code servedGroup} is counted under:
     * the name the key's budget for the asked model is read under when the asked group served
     * it, so the check and the count agree; a fallback group's own name otherwise.
     */
    private String chargedModel(String servedGroup) {
        return caller instanceof Caller.Keyed keyed && servedGroup.equals(requestedGroup)
                ? CallerBudgets.modelBudgetName(keyed.key(), called) : servedGroup;
    }

    private double finish(CallEnd end, boolean cacheHit) {
        if (!finished.compareAndSet(false, true)) {
            return -1;
        }
        double dollars = cacheHit ? 0 : price(end);
        if (!cacheHit && end.deployment().isPresent() && end.status() / 100 == 2) {
            accounting.outputs().answered(end.group(), end.completionTokens());
        }
        hold.settle(CallerBudgets.charged(caller, chargedModel(end.group()), storedCustomer ? endUser : Optional.empty()), dollars);
        if (permit != null) {
            permit.release(end.promptTokens() + end.completionTokens());
        }
        try {
            if (!accounting.spend().record(spendRow(end, dollars, cacheHit))) {
                log.error("spend.row_lost call_id={} cost={} reason=the spend journal refused it (full, closed or its disk failing)",
                        callId, dollars);
            }
        } catch (RuntimeException unrecordable) {
            // The call has ended and is counted in memory; a row the log cannot hold must not
            // also fail the answer (or leave a stream unended) after the upstream was paid.
            log.error("spend.row_lost call_id={} cost={} reason={}", callId, dollars, unrecordable.getMessage());
        }
        return dollars;
    }

    private SpendRow spendRow(CallEnd end, double dollars, boolean cacheHit) {
        SpendRow.Builder row = SpendRow.builder(callId, end.deployment().isPresent() ? end.group() : requestedGroup, startedAt)
                .promptTokens(end.promptTokens())
                .completionTokens(end.completionTokens())
                .totalTokens(end.promptTokens() + end.completionTokens())
                .cachedTokens(end.cacheReadTokens())
                .tags(tags)
                .cost(Money.of(dollars))
                .status(end.status())
                .durationMs(TimeUnit.NANOSECONDS.toMillis(accounting.nanoTime().getAsLong() - startedNanos));
        end.deployment().ifPresent(d -> row.deploymentId(d.id()));
        row.cacheHit(cacheHit).cacheKey(cacheKey).endUser(endUser.orElse(null));
        if (caller instanceof Caller.Keyed keyed) {
            row.keyHash(keyed.keyHash());
            keyed.team().ifPresent(team -> row.teamId(team.teamId()));
            keyed.key().owner().userId().ifPresent(row::userId);
        }
        return row.build();
    }
}
