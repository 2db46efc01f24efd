-- A team's model aliases, as the model_aliases LiteLLM keeps in the LiteLLM_ModelTable row tied
-- to a team: a JSON object from a name the team's keys may send in "model" to the model it stands
-- for ({"gpt-4": "gpt-4o"}). Teams made before this migration have none. Adding a column with a
-- constant default rewrites no row on PostgreSQL (11 and later).

ALTER TABLE sluice_teams ADD COLUMN model_aliases TEXT NOT NULL DEFAULT '{}';
