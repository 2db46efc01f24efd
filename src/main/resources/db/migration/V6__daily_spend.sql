-- Daily rollups of the spend log, and a spend log that is cheap to append to.
--
-- Reports read sluice_daily_spend: per UTC day, one row per key (its hash), team, model group,
-- deployment and tag, counting the calls, their outcomes, tokens and spend; and one per key and
-- model group, which a key's per-model budget (model_max_budget) is summed from beyond the days
-- the spend log keeps. The spend ledger
-- adds a batch's new spend rows to it in the transaction that logs them, so a row counts in
-- its rollups exactly when it is logged. A call with two tags counts once under each tag.
--
-- The spend log keeps one row per call for a while (general_settings.
-- maximum_spend_logs_retention_period, 30 days unless set); rows are pruned by started_at.
-- Its per-key, per-team and per-group indexes go: every one was written on every call and
-- read by no report the rollups do not serve better. The index by key, group and time stays:
-- a per-model budget's period starting mid-day sums that day's part from the log.
--
-- A date is taken from the UTC time as text: H2 turns a zoned time into a DATE in the JVM's own
-- zone, whatever AT TIME ZONE says.

ALTER TABLE sluice_spend_logs ADD COLUMN cached_tokens BIGINT NOT NULL DEFAULT 0;
ALTER TABLE sluice_spend_logs ADD COLUMN request_tags TEXT;  -- JSON array of the call's tags; NULL for none

DROP INDEX sluice_spend_logs_key_idx;
DROP INDEX sluice_spend_logs_team_idx;
DROP INDEX sluice_spend_logs_group_idx;
CREATE INDEX sluice_spend_logs_started_at_idx ON sluice_spend_logs (started_at);

CREATE TABLE sluice_daily_spend (
    spend_date        DATE            NOT NULL,  -- the UTC day the calls started on
    dimension         VARCHAR(16)     NOT NULL,  -- key, team, model_group, deployment, tag or key_model
    name              VARCHAR(330)    NOT NULL,  -- the key's hash, the team id, the group, the deployment id, the tag,
                                                 -- or the key's hash, ':' and the group
    requests          BIGINT          NOT NULL,
    successes         BIGINT          NOT NULL,  -- calls answered with a 2xx or 3xx status
    failures          BIGINT          NOT NULL,
    prompt_tokens     BIGINT          NOT NULL,
    completion_tokens BIGINT          NOT NULL,
    cached_tokens     BIGINT          NOT NULL,
    spend             NUMERIC(30, 12) NOT NULL,
    CONSTRAINT sluice_daily_spend_pkey PRIMARY KEY (dimension, name, spend_date)
);

CREATE INDEX sluice_daily_spend_day_idx ON sluice_daily_spend (spend_date, dimension);

-- What was logged before this migration, rolled up once: each row under each name it has,
-- its day taken once (by a view that lives only for this migration).
CREATE VIEW sluice_logged_by_day AS
SELECT CAST(TO_CHAR(started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS DATE) AS spend_date,
       key_hash, team_id, model_group, deployment_id, status, prompt_tokens, completion_tokens, cost
FROM sluice_spend_logs;

INSERT INTO sluice_daily_spend
SELECT spend_date, dimension, name, COUNT(*),
       SUM(CASE WHEN status < 400 THEN 1 ELSE 0 END), SUM(CASE WHEN status >= 400 THEN 1 ELSE 0 END),
       SUM(prompt_tokens), SUM(completion_tokens), 0, SUM(cost)
FROM (
    SELECT spend_date, 'key' AS dimension, key_hash AS name, status, prompt_tokens, completion_tokens, cost
    FROM sluice_logged_by_day WHERE key_hash IS NOT NULL
    UNION ALL
    SELECT spend_date, 'team', team_id, status, prompt_tokens, completion_tokens, cost
    FROM sluice_logged_by_day WHERE team_id IS NOT NULL
    UNION ALL
    SELECT spend_date, 'model_group', model_group, status, prompt_tokens, completion_tokens, cost
    FROM sluice_logged_by_day
    UNION ALL
    SELECT spend_date, 'deployment', deployment_id, status, prompt_tokens, completion_tokens, cost
    FROM sluice_logged_by_day WHERE deployment_id IS NOT NULL
    UNION ALL
    SELECT spend_date, 'key_model', key_hash || ':' || model_group, status, prompt_tokens, completion_tokens, cost
    FROM sluice_logged_by_day WHERE key_hash IS NOT NULL
) AS named
GROUP BY spend_date, dimension, name;

DROP VIEW sluice_logged_by_day;
