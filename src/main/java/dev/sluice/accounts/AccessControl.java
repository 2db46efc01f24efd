package dev.sluice.accounts;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.accounts.limits.Admission;
import dev.sluice.accounts.limits.BudgetCheck;
import dev.sluice.accounts.limits.BudgetCheck.Budget;
import dev.sluice.accounts.limits.BudgetReserver;
import dev.sluice.accounts.limits.Permit;
import dev.sluice.accounts.limits.RateLimiter;
import dev.sluice.accounts.limits.RateLimits;
import dev.sluice.accounts.spend.BudgetReservations;
import dev.sluice.accounts.spend.CallCost;
import dev.sluice.accounts.spend.FallbackEstimate;
import dev.sluice.accounts.spend.OutputTokenAverages;
import dev.sluice.accounts.spend.SpendCounters;
import dev.sluice.accounts.spend.SpendRecorder;
import dev.sluice.config.GeneralSettings;
import dev.sluice.config.Secret;
import dev.sluice.router.FallbackGate;
import dev.sluice.router.ModelGroup;
import dev.sluice.router.SkipReason;
import dev.sluice.store.Customer;
import dev.sluice.store.StoreException;
import dev.sluice.store.VirtualKey;
import dev.sluice.time.TimeSource;
import dev.sluice.wire.ApiError;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who may call, and how much: authenticates a request (the master key, or a virtual key from
 * the store), admits a model call by the caller's model access, budgets and rate limits, and
 * gates its fallbacks. Shared by every event loop; thread-safe.
 *
 * <p>The checks of a model call, in order: the key may use the model (else 403), no budget of
 * the key, its team or its key's budget for the group is spent (else 400
 * {@code budget_exceeded}) or held in full by calls in flight (else 429
 * {@code budget_held_by_calls_in_flight} with {@code Retry-After}), its rate limits admit it
 * (else 429 with {@code Retry-After}). A call refused by one check consumes nothing of the others.
 */
public final class AccessControl {
    private static final Logger log = LoggerFactory.getLogger(AccessControl.class);

    private final byte[] masterKeyDigest;
    private final Optional<KeyDirectory> directory;
    private final GeneralSettings general;
    private final SpendCounters counters;
    private final RateLimiter limits;
    private final FallbackEstimate estimate;
    private final OutputTokenAverages outputs;
    private final CallTicket.Accounting accounting;
    private final BudgetReserver budgets;
    private final SpendRecorder spend;
    private final Clock clock;
    private final LongSupplier nanoTime;
    private final AuthThrottle throttle;
    private final Supplier<Map<String, List<String>>> accessGroups;
    private final CallerBudgets callerBudgets;

    /**
     * Where calls' money is counted.
     *
     * @param counters each key's, team's and model's spend in its current budget period
     * @param cost     what a call costs
     * @param spend    where each finished call's spend row goes
     * @param budgets  where calls' budgets are checked and their estimates held: in this
     *                 process, or in the store the replicas share
     * @param outputs  what answers of each group run to, which sizes the hold of a call that
     *                 sets no {@code max_tokens}; fed by every answered call
     */
    public record Ledger(SpendCounters counters, CallCost cost, SpendRecorder spend, BudgetReserver budgets,
            OutputTokenAverages outputs) {
        /** A ledger whose budgets are held in this process. */
        public Ledger(SpendCounters counters, CallCost cost, SpendRecorder spend) {
            this(counters, cost, spend, new BudgetReservations(counters));
        }

        /** A ledger that learns what each group's answers run to from the calls it counts. */
        public Ledger(SpendCounters counters, CallCost cost, SpendRecorder spend, BudgetReserver budgets) {
            this(counters, cost, spend, budgets, new OutputTokenAverages());
        }
    }

    /**
     * @param directory the store's keys; empty when no store is open, and then only the master
     *                  key is known
     * @param accessGroups each {@code model_info.access_groups} name to the groups in it, as
     *                     served right now (read on every check: deployments change at run time)
     */
    public AccessControl(GeneralSettings general, Optional<KeyDirectory> directory, RateLimiter limits, Ledger ledger,
            TimeSource time, Supplier<Map<String, List<String>>> accessGroups) {
        this.accessGroups = accessGroups;
        this.masterKeyDigest = general.masterKey().map(Secret::value).map(KeyDigest::of).orElse(null);
        this.directory = directory;
        this.general = general;
        this.counters = ledger.counters();
        this.limits = limits;
        this.estimate = new FallbackEstimate(ledger.cost());
        this.outputs = ledger.outputs();
        this.accounting = new CallTicket.Accounting(ledger.cost(), counters, ledger.spend(), time.ticker(), outputs);
        this.budgets = ledger.budgets();
        this.spend = ledger.spend();
        this.clock = time.clock();
        this.nanoTime = time.ticker();
        this.throttle = new AuthThrottle(general.authFailures(), nanoTime);
        this.callerBudgets = new CallerBudgets(counters);
    }

    /** Whether {@code presented} (null when none was sent) is the master key. */
    public boolean isMasterKey(String presented) {
        return masterKeyDigest != null && presented != null && MessageDigest.isEqual(masterKeyDigest, KeyDigest.of(presented));
    }

    /**
     * Whether a virtual key could be checked while the store cannot answer: keys are not
     * required, there is no store, copies of keys can be read, or some key is held in memory.
     */
    public boolean canCheckKeysWithoutStore() {
        return !required() || directory.map(KeyDirectory::canCheckKeysWithoutStore).orElse(true);
    }

    /** Whether callers must present a key: a master key is configured. */
    public boolean required() {
        return masterKeyDigest != null;
    }

    /**
     * Who sent {@code presented} (null when the request carried no key) from {@code client} (its
     * address). Completes on the calling event loop, the store being read off it (on a virtual
     * thread) when the key is not cached. Fails with a 401 {@link ApiError} for a missing,
     * unknown, blocked or expired key, a 503 when the store cannot be reached for a key never
     * seen, and a 429 when {@code client} has presented too many unknown keys of late and this
     * one would need the store ({@link AuthThrottle}).
     */
    public Future<Caller> authenticate(String presented, String client, Vertx vertx) {
        if (masterKeyDigest == null) {
            return Future.succeededFuture(Caller.OPEN);
        }
        if (presented == null) {
            return Future.failedFuture(ApiError.unauthorized(
                    "No API key provided. Send it as 'Authorization: Bearer <key>', 'x-api-key' or 'api-key'."));
        }
        byte[] presentedDigest = KeyDigest.of(presented);
        if (MessageDigest.isEqual(masterKeyDigest, presentedDigest)) {
            return Future.succeededFuture(Caller.ADMIN);
        }
        if (directory.isEmpty()) {
            return Future.failedFuture(ApiError.unauthorized("Invalid API key."));
        }
        String hash = java.util.HexFormat.of().formatHex(presentedDigest);
        Optional<KeyDirectory.Found> held = directory.get().held(hash);
        if (held.isPresent()) {
            return settle(held, presented);
        }
        Optional<java.time.Duration> throttled = throttle.refused(client);
        if (throttled.isPresent()) {
            long seconds = RateLimits.wholeSecondsUp(throttled.get());
            return Future.failedFuture(new ApiError(429, "rate_limit_error", "Too many unknown keys from this address; "
                    + "try again in " + seconds + " s.", null, "too_many_failed_authentications")
                    .withHeaders(Map.of("Retry-After", Long.toString(seconds))));
        }
        CompletableFuture<Optional<KeyDirectory.Found>> found = directory.get().find(hash)
                .whenComplete((key, failure) -> {
                    if (failure == null && key.isEmpty()) {
                        throttle.failed(client);
                    }
                });
        if (found.isDone() && !found.isCompletedExceptionally()) {
            return settle(found.join(), presented);
        }
        return Future.fromCompletionStage(found, vertx.getOrCreateContext())
                .recover(t -> Future.failedFuture(unwrapped(t) instanceof StoreException e
                        && e.reason() == StoreException.Reason.UNAVAILABLE
                        ? new ApiError(503, "service_unavailable", "Sluice cannot check this key now: the key store is "
                                + "unreachable (" + e.getMessage() + "). Keys used before keep working; try again shortly.",
                                null, "store_unavailable")
                        : unwrapped(t)))
                .compose(key -> settle(key, presented));
    }

    private static Throwable unwrapped(Throwable t) {
        return t instanceof CompletionException wrapped && wrapped.getCause() != null ? wrapped.getCause() : t;
    }

    private Future<Caller> settle(Optional<KeyDirectory.Found> found, String presented) {
        if (found.isEmpty()) {
            return Future.failedFuture(ApiError.unauthorized("Invalid API key."));
        }
        VirtualKey key = found.get().key();
        if (key.blocked()) {
            return Future.failedFuture(ApiError.unauthorized(
                    "This key is blocked. An administrator can unblock it with /key/unblock."));
        }
        Instant now = clock.instant();
        if (key.lifetime().expiresAt().filter(expiry -> !now.isBefore(expiry)).isPresent()) {
            return Future.failedFuture(ApiError.unauthorized("This key expired at " + key.lifetime().expiresAt().get()
                    + "; the time is " + now + "."));
        }
        return Future.succeededFuture(new Caller.Keyed(key, found.get().team(), found.get().teamRouting(), presented,
                found.get().owners()));
    }

    /** {@link #admit(Caller, CalledModel, String, List, Optional, DoubleSupplier)} of a call that names no customer. */
    public Future<CallTicket> admit(Caller caller, CalledModel called, String callId, List<String> tags, DoubleSupplier estimate) {
        return admit(caller, called, callId, tags, Optional.empty(), estimate);
    }

    /**
     * Admits a call of {@code caller} to {@code group} made for the customer {@code endUser}
     * (its body's {@code user}), or fails with the {@link ApiError} that refuses it. The ticket
     * must be {@linkplain CallTicket#finish finished} once the call ends. Under a budget the
     * call holds {@code estimate} (US dollars, asked for only then) of it until it ends
     * ({@link BudgetReserver}). Completes on the calling event loop; budgets and rate limits
     * shared with other replicas may take a round trip to the store they share, and a customer
     * not held in memory a read of the store.
     */
    public Future<CallTicket> admit(Caller caller, CalledModel called, String callId, List<String> tags, Optional<String> endUser,
            DoubleSupplier estimate) {
        String group = called.group();
        Optional<ApiError> badEndUser = EndUsers.refusal(endUser);
        if (badEndUser.isPresent()) {
            return Future.failedFuture(badEndUser.get());
        }
        if (!spend.accepting()) {
            return Future.failedFuture(new ApiError(503, "service_unavailable", "Sluice cannot record spend now: the store "
                    + "is unreachable and the spend journal is full. Calls resume as soon as the store is back.", null,
                    "spend_log_full"));
        }
        Instant now = clock.instant();
        CallTicket.Start start = new CallTicket.Start(caller, callId, called, tags, now, nanoTime.getAsLong(), endUser);
        if (caller instanceof Caller.Open) {
            return Future.succeededFuture(new CallTicket(start, null, Map.of(), accounting));
        }
        return customer(endUser).compose(customer -> admit(caller, called, start, customer, estimate));
    }

    private Future<CallTicket> admit(Caller caller, CalledModel called, CallTicket.Start start, Optional<Customer> customer,
            DoubleSupplier estimate) {
        String group = called.group();
        if (customer.filter(Customer::blocked).isPresent()) {
            String blocked = "User blocked from making LLM API Calls. User=" + customer.get().userId();
            return Future.failedFuture(new ApiError(400, "invalid_request_error", blocked, null, "400"));
        }
        if (!(caller instanceof Caller.Keyed keyed)) {
            List<Budget> applying = callerBudgets.of(customer);
            if (applying.isEmpty()) {
                return Future.succeededFuture(ticket(start, null, Map.of(), customer));
            }
            return budgets.reserve(applying, estimate.getAsDouble()).compose(reservation -> switch (reservation) {
                case BudgetReserver.Reached reached -> Future.failedFuture(BudgetRefusal.of(reached, ""));
                case BudgetReserver.Held held -> Future.succeededFuture(
                        ticket(start, null, Map.of(), customer).holding(held.hold()));
            });
        }
        Optional<ApiError> refusal = ModelAccess.refusal(keyed, called, accessGroups.get());
        if (refusal.isPresent()) {
            return Future.failedFuture(refusal.get());
        }
        List<Budget> applying = callerBudgets.of(keyed, called, customer);
        Future<BudgetReserver.Reservation> reserved = applying.isEmpty()
                ? Future.succeededFuture(new BudgetReserver.Held(counters::addAll))
                : budgets.reserve(applying, estimate.getAsDouble());
        return reserved.compose(reservation -> switch (reservation) {
            case BudgetReserver.Reached reached -> Future.failedFuture(BudgetRefusal.of(reached, keyed.label()));
            case BudgetReserver.Held held -> limits.check(CallerBudgets.subject(keyed, called, customer), start.startedAt())
                    .compose(admission -> switch (admission) {
                case Admission.Refused refused -> {
                    // Refused after all: what the call held of its budgets goes back at once.
                    held.hold().settle(List.of(), 0);
                    Map<String, String> headers = new LinkedHashMap<>(refused.headers().values());
                    headers.put("Retry-After", Long.toString(refused.retryAfterSeconds()));
                    yield Future.failedFuture(new ApiError(429, "rate_limit_error", refused.reason(), null, "rate_limit_exceeded")
                            .withHeaders(headers));
                }
                case Admission.Admitted admitted -> Future.succeededFuture(ticket(start, admitted.permit(),
                        admitted.headers().values(), customer).holding(held.hold()));
            });
        });
    }

    private CallTicket ticket(CallTicket.Start start, Permit permit, Map<String, String> headers, Optional<Customer> customer) {
        CallTicket ticket = new CallTicket(start, permit, headers, accounting);
        return customer.isPresent() ? ticket.forStoredCustomer() : ticket;
    }

    /** The customer {@code endUser} names, read on the calling context; empty for none or one not stored. */
    private Future<Optional<Customer>> customer(Optional<String> endUser) {
        if (endUser.isEmpty() || directory.isEmpty()) {
            return Future.succeededFuture(Optional.empty());
        }
        CompletableFuture<Optional<Customer>> found = directory.get().customers().find(endUser.get());
        if (found.isDone()) {
            return Future.succeededFuture(found.getNow(Optional.empty()));
        }
        Context context = Vertx.currentContext();
        return context == null ? Future.fromCompletionStage(found) : Future.fromCompletionStage(found, context);
    }

    /**
     * What a call of {@code body} ({@code bodyBytes} long) to {@code group} is reckoned to cost
     * when admitted, the {@link FallbackEstimate} with the prompt taken as four bytes of the
     * body a token (counting the prompt's tokens costs more than the rest of admission, and the
     * body's bytes are never fewer than its prompt's) and, when the body sets no
     * {@code max_tokens}, the answer as long as the group's answers run on average
     * ({@link OutputTokenAverages}), never the model's longest.
     */
    public double admissionEstimate(ModelGroup group, JsonNode body, int bodyBytes) {
        return group.deployments().isEmpty() ? 0
                : estimate.of(group.deployments(), bodyBytes / 4, body, outputs.expected(group.name())).dollars();
    }

    /**
     * The gate of {@code caller}'s fallbacks for one request: a group the key or team may not
     * use is skipped ({@code enforce_fallback_model_access}), and so is one whose estimated
     * call a budget does not cover ({@code enforce_fallback_budget}; see
     * {@link FallbackEstimate}).
     *
     * @param promptTokens the prompt's tokens, counted only when a budget needs them
     */
    public FallbackGate fallbackGate(Caller caller, ObjectNode body, LongSupplier promptTokens) {
        if (!(caller instanceof Caller.Keyed keyed)) {
            return FallbackGate.OPEN;
        }
        return (name, target) -> {
            if (general.fallbackChecks().enforceFallbackModelAccess() && !ModelAccess.allows(keyed, new CalledModel(name, target.name()), accessGroups.get())) {
                return Optional.of(SkipReason.NO_ACCESS);
            }
            if (!general.fallbackChecks().enforceFallbackBudget()) {
                return Optional.empty();
            }
            List<Budget> budgets = budgets(keyed, new CalledModel(name, target.name()));
            if (budgets.isEmpty()) {
                return Optional.empty();
            }
            FallbackEstimate.Estimate call = estimate.of(target.deployments(), promptTokens.getAsLong(), body);
            if (BudgetCheck.fallback(budgets, call.dollars()) instanceof BudgetCheck.OverBudget over) {
                log.info("fallback.over_budget group={} {}", target.name(), over.describe());
                return Optional.of(SkipReason.OVER_BUDGET);
            }
            return Optional.empty();
        };
    }

    /** The caller's budgets that apply to a call of {@code called}, with what each has spent. */
    private List<Budget> budgets(Caller.Keyed keyed, CalledModel called) {
        return callerBudgets.of(keyed, called, Optional.empty());
    }

    /**
     * Why {@code caller} may not call {@code group}, worded as the model access error of a call,
     * or empty when it may: for a route that reads a group without calling it (token counts).
     */
    public Optional<ApiError> modelRefusal(Caller caller, CalledModel called) {
        return caller instanceof Caller.Keyed keyed ? ModelAccess.refusal(keyed, called, accessGroups.get()) : Optional.empty();
    }

    /** Whether {@code caller} may call {@code group}: every caller but a key limited to other groups. */
    public boolean mayUse(Caller caller, String group) {
        return mayUse(caller, CalledModel.of(group));
    }

    /** Whether {@code caller} may make {@code called}. */
    public boolean mayUse(Caller caller, CalledModel called) {
        return !(caller instanceof Caller.Keyed keyed) || ModelAccess.allows(keyed, called, accessGroups.get());
    }

    /**
     * The error for a group that does not exist, or that {@code caller} may not see: it lists
     * only the groups of {@code served} the caller may use, so a key learns nothing of the rest.
     */
    public ApiError unknownGroup(Caller caller, String requested, Collection<String> served) {
        List<String> usable = served.stream().filter(name -> mayUse(caller, name)).toList();
        return ApiError.invalidRequest("Invalid model name passed in model=" + requested + ". Model groups you may use: "
                + String.join(", ", usable) + ".", "model", "model_not_found");
    }

    /** Forgets what is held in memory of a key, team, user, organization or customer changed through the account API. */
    public AccountChanges changes() {
        return new HeldAccountChanges(directory, counters);
    }
}
