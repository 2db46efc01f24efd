-- The customer a call was made for in the spend log, and a team member's spend within its team.
--
-- The customer a call was made for (its body's user, LiteLLM's end_user) in the spend log's
-- rows on PostgreSQL; the embedded store's blocks hold it in each row's body already.
-- TEXT: a call may name an end user of any length; the daily rollups count by end user only
-- those up to 255 characters, the longest id a customer can have (sluice_customers.user_id).
-- No index: /spend/logs narrows by start time first, as for its other filters.

ALTER TABLE sluice_spend_logs ADD COLUMN end_user TEXT;

-- What a member has spent within its team (LiteLLM's LiteLLM_TeamMembership.spend): the calls
-- of its keys of that team, held to max_budget_in_team. Added in the spend ledger's transaction
-- as the key's, team's and user's spend are.
ALTER TABLE sluice_team_members ADD COLUMN spend NUMERIC(30, 12) NOT NULL DEFAULT 0;
