-- When a key was last changed, shown as LiteLLM's updated_at. Keys made before this version
-- have none and show their creation time.
ALTER TABLE sluice_keys ADD COLUMN updated_at TIMESTAMP WITH TIME ZONE;
