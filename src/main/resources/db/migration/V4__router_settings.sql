-- Router settings changed through the router settings API (/router/settings/update), over the
-- config file's, for every replica that shares the store. One row per setting, so changes to
-- different settings through different replicas never overwrite each other; a setting reset
-- to the file's value (or the default) has no row.
--
-- setting_value is the setting's value as JSON in canonical form (a count as a number, a
-- timeout as seconds, fallbacks as LiteLLM's list of single-key maps). updated_at says when it
-- was set.

CREATE TABLE sluice_router_settings (
    setting_name  VARCHAR(255)             NOT NULL,
    setting_value TEXT                     NOT NULL,
    updated_at    TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT sluice_router_settings_pkey PRIMARY KEY (setting_name)
);
