package dev.sluice.admin;

import dev.sluice.accounts.AccountChanges;
import dev.sluice.accounts.Caller;
import dev.sluice.http.BodyLimits;
import dev.sluice.model.Required;
import dev.sluice.store.KeyRepository;
import dev.sluice.store.TeamRepository;
import io.vertx.core.Future;
import io.vertx.core.http.HttpServerRequest;
import java.time.Clock;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * What the key and team API ({@link KeyAdminHandlers}, {@link TeamAdminHandlers}) needs
 * from the gateway.
 *
 * @param authenticate    who made a request; a failed future holding an
 *                        {@link dev.sluice.wire.ApiError} is answered as it is
 * @param keys            the stored virtual keys
 * @param teams           the stored teams
 * @param clock           now, for creation times, expiry and budget resets; its zone is the
 *                        budget time zone ({@code litellm_settings.timezone}), where the days
 *                        and months of a {@code budget_duration} end
 * @param changes         told of every key and team written, so cached state follows
 * @param bodies          what a request body may be: its size, the budget all bodies share, its JSON, its pace
 * @param nanoTime        the monotonic clock that times out slow request bodies
 * @param owners          the stored users, team members, organizations and customers
 */
public record AccountApi(
        Function<HttpServerRequest, Future<Caller>> authenticate,
        KeyRepository keys,
        TeamRepository teams,
        Clock clock,
        AccountChanges changes,
        BodyLimits bodies,
        LongSupplier nanoTime,
        OwnerRepositories owners) {

    public AccountApi {
        Required.nonNull("authenticate, keys, teams, clock, changes, nanoTime, bodies, owners",
                authenticate, keys, teams, clock, changes, nanoTime, bodies, owners);
    }
}
