package dev.sluice.admin;

import dev.sluice.accounts.spend.CallCost;
import dev.sluice.model.Required;
import dev.sluice.router.ModelRegistry;
import dev.sluice.store.DailySpendRepository;
import dev.sluice.store.SpendLogReader;

/**
 * What the spend API ({@link SpendHandlers}) needs from the gateway besides what the key and
 * team API does.
 *
 * @param log     the spend log, one row per call, for {@code /spend/logs}
 * @param rollups the daily rollups, for the reports by day
 * @param models  the deployments served, which name a row's model and price {@code /spend/calculate}
 * @param cost    the gateway's own pricing, as each call is charged
 */
public record SpendApi(AccountApi accounts, SpendLogReader log, DailySpendRepository rollups, ModelRegistry models,
        CallCost cost) {

    public SpendApi {
        Required.nonNull("accounts, log, rollups, models, cost", accounts, log, rollups, models, cost);
    }
}
