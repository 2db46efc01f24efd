-- Whether a call was answered from the response cache, as LiteLLM's spend logs say.
--
-- cache_hit is TRUE for a call the response cache answered; cache_key is the cache's key for
-- the call: a SHA-256 in lowercase hex after the namespace and a colon, if any (the entry that answered it, or that its answer was stored
-- under), NULL when the cache was not asked. Rows logged before this migration read as calls
-- the cache did not answer, with no key. Adding a column with a constant default rewrites no
-- row on PostgreSQL (11 and later), however long the log.
--
-- The embedded store's blocks (sluice_spend_blocks) need no change: a row the cache had a part
-- in carries both in its SpendRowCodec body (version 3).

ALTER TABLE sluice_spend_logs ADD COLUMN cache_hit BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE sluice_spend_logs ADD COLUMN cache_key VARCHAR(321);
