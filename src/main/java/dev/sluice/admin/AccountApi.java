package dev.sluice.admin;

import dev.sluice.access.AccountChanges;
import dev.sluice.access.Caller;
import dev.sluice.http.BodyBudget;
import dev.sluice.store.KeyRepository;
import dev.sluice.store.TeamRepository;
import io.vertx.core.Future;
import io.vertx.core.http.HttpServerRequest;
import java.time.Clock;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * What the key and team API ({@link KeyAdminHandlers}, {@link TeamAdminHandlers}) needs
 * from the gateway.
 *
 * @param authenticate    who made a request; a failed future holding an
 *                        {@link dev.sluice.api.ApiError} is answered as it is
 * @param keys            the stored virtual keys
 * @param teams           the stored teams
 * @param clock           now, for creation times, expiry and budget resets; its zone is the
 *                        budget time zone ({@code litellm_settings.timezone}), where the days
 *                        and months of a {@code budget_duration} end
 * @param changes         told of every key and team written, so cached state follows
 * @param maxRequestBytes the largest request body read
 * @param nanoTime        the monotonic clock that times out slow request bodies
 * @param bodyBudget      the request body bytes all calls together may hold
 * @param owners          the stored users, team members, organizations and customers
 */
public record AccountApi(
        Function<HttpServerRequest, Future<Caller>> authenticate,
        KeyRepository keys,
        TeamRepository teams,
        Clock clock,
        AccountChanges changes,
        long maxRequestBytes,
        LongSupplier nanoTime,
        BodyBudget bodyBudget,
        OwnerRepositories owners) {

    public AccountApi {
        Objects.requireNonNull(authenticate, "authenticate");
        Objects.requireNonNull(keys, "keys");
        Objects.requireNonNull(teams, "teams");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(changes, "changes");
        Objects.requireNonNull(nanoTime, "nanoTime");
        Objects.requireNonNull(bodyBudget, "bodyBudget");
        Objects.requireNonNull(owners, "owners");
        if (maxRequestBytes < 1) {
            throw new IllegalArgumentException("maxRequestBytes: " + maxRequestBytes + " (expected: >= 1)");
        }
    }
}
