-- A key's model aliases, as LiteLLM's LiteLLM_VerificationToken.aliases: a JSON object from a
-- name the key's calls may send in "model" to the model it stands for ({"gpt-4": "gpt-4o"}).
-- Keys made before this migration have none. Adding a column with a constant default rewrites
-- no row on PostgreSQL (11 and later).

ALTER TABLE sluice_keys ADD COLUMN aliases TEXT NOT NULL DEFAULT '{}';
