-- Daily rollups by deployment and the model group it served ('deployment_group'), for
-- /global/spend/report?group_by=deployment: each deployment's spend, tokens and calls per day,
-- under its group.
--
-- A rollup's name is the deployment id, the unit separator (U+001F, which no id or group
-- name is expected to hold) and the group. Both may be 255 characters long, so the name
-- column grows to hold the two.
--
-- The days before this migration are rolled up from the spend log rows still kept (the log
-- keeps rows for its retention period; calls pruned before it are not counted by deployment).
-- A date is taken from the UTC time as text, as in V6.

ALTER TABLE sluice_daily_spend ALTER COLUMN name SET DATA TYPE VARCHAR(520);

INSERT INTO sluice_daily_spend
SELECT CAST(TO_CHAR(started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS DATE), 'deployment_group',
       deployment_id || CHR(31) || model_group, COUNT(*),
       SUM(CASE WHEN status < 400 THEN 1 ELSE 0 END), SUM(CASE WHEN status >= 400 THEN 1 ELSE 0 END),
       SUM(prompt_tokens), SUM(completion_tokens), SUM(cached_tokens), SUM(cost)
FROM sluice_spend_logs
WHERE deployment_id IS NOT NULL
GROUP BY CAST(TO_CHAR(started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS DATE), deployment_id || CHR(31) || model_group;
