-- The customer a call was made for (its body's user, LiteLLM's end_user) in the spend log's
-- rows on PostgreSQL; the embedded store's blocks hold it in each row's body already.
--
-- TEXT: a call may name an end user of any length; the daily rollups count by end user only
-- those up to 255 characters, the longest id a customer can have (sluice_customers.user_id).
-- No index: /spend/logs narrows by start time first, as for its other filters.

ALTER TABLE sluice_spend_logs ADD COLUMN end_user TEXT;
