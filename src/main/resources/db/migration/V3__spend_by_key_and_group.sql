-- A key's per-model budgets (model_max_budget) are summed from the spend log on every read of
-- the key, by replicas sharing the store: by key, group and time, without reading the key's
-- whole history.
CREATE INDEX sluice_spend_logs_key_group_idx ON sluice_spend_logs (key_hash, model_group, started_at);
