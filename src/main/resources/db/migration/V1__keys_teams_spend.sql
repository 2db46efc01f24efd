-- Virtual keys, teams and the spend log.
--
-- One script for PostgreSQL and for H2 in its PostgreSQL mode, so it uses only what both
-- accept: no JSONB, arrays, enums or SERIAL. JSON values (lists, maps, objects) are TEXT
-- written and read by Sluice; money is NUMERIC(30, 12), exact to a trillionth of a dollar;
-- times are TIMESTAMP WITH TIME ZONE. Tables carry a sluice_ prefix so they can sit beside
-- LiteLLM's own in a database the two share.
--
-- No foreign keys: a spend row must be written even when its key or team has since been
-- deleted, and deleting a team does not decide for the API what happens to its keys.

CREATE TABLE sluice_teams (
    team_id         VARCHAR(255)             NOT NULL,
    team_alias      VARCHAR(255),
    models          TEXT                     NOT NULL,  -- JSON array of model groups; [] means all
    max_budget      NUMERIC(30, 12),
    budget_duration VARCHAR(32),                         -- as written: 30s, 30m, 30h, 30d
    budget_reset_at TIMESTAMP WITH TIME ZONE,
    spend           NUMERIC(30, 12)          NOT NULL DEFAULT 0,
    rpm_limit       BIGINT,
    tpm_limit       BIGINT,
    router_settings TEXT                     NOT NULL,  -- JSON object
    metadata        TEXT                     NOT NULL,  -- JSON object
    created_at      TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT sluice_teams_pkey PRIMARY KEY (team_id)
);

CREATE INDEX sluice_teams_budget_reset_at_idx ON sluice_teams (budget_reset_at);

CREATE TABLE sluice_keys (
    token_hash            VARCHAR(64)              NOT NULL,  -- SHA-256 of the key, lowercase hex
    key_alias             VARCHAR(255),
    key_name              VARCHAR(255)             NOT NULL,  -- masked for display: sk-...abcd
    team_id               VARCHAR(255),
    user_id               VARCHAR(255),
    models                TEXT                     NOT NULL,  -- JSON array of model groups; [] means all
    max_budget            NUMERIC(30, 12),
    budget_duration       VARCHAR(32),
    budget_reset_at       TIMESTAMP WITH TIME ZONE,
    spend                 NUMERIC(30, 12)          NOT NULL DEFAULT 0,
    rpm_limit             BIGINT,
    tpm_limit             BIGINT,
    max_parallel_requests INTEGER,
    model_max_budget      TEXT                     NOT NULL,  -- JSON {group: {budget_limit, time_period}}
    model_rpm_limit       TEXT                     NOT NULL,  -- JSON {group: limit}
    model_tpm_limit       TEXT                     NOT NULL,  -- JSON {group: limit}
    metadata              TEXT                     NOT NULL,  -- JSON object
    expires_at            TIMESTAMP WITH TIME ZONE,
    created_at            TIMESTAMP WITH TIME ZONE NOT NULL,
    blocked               BOOLEAN                  NOT NULL DEFAULT FALSE,
    CONSTRAINT sluice_keys_pkey PRIMARY KEY (token_hash),
    CONSTRAINT sluice_keys_key_alias_key UNIQUE (key_alias)
);

CREATE INDEX sluice_keys_team_id_idx ON sluice_keys (team_id);
CREATE INDEX sluice_keys_user_id_idx ON sluice_keys (user_id);
CREATE INDEX sluice_keys_budget_reset_at_idx ON sluice_keys (budget_reset_at);

CREATE TABLE sluice_spend_logs (
    call_id           VARCHAR(255)             NOT NULL,
    key_hash          VARCHAR(64),
    team_id           VARCHAR(255),
    user_id           VARCHAR(255),
    model_group       VARCHAR(255)             NOT NULL,
    deployment_id     VARCHAR(255),
    prompt_tokens     BIGINT                   NOT NULL,
    completion_tokens BIGINT                   NOT NULL,
    total_tokens      BIGINT                   NOT NULL,
    cost              NUMERIC(30, 12)          NOT NULL,
    status            INTEGER                  NOT NULL,  -- the HTTP status the caller got
    duration_ms       BIGINT                   NOT NULL,
    started_at        TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT sluice_spend_logs_pkey PRIMARY KEY (call_id)
);

CREATE INDEX sluice_spend_logs_key_idx ON sluice_spend_logs (key_hash, started_at);
CREATE INDEX sluice_spend_logs_team_idx ON sluice_spend_logs (team_id, started_at);
CREATE INDEX sluice_spend_logs_group_idx ON sluice_spend_logs (model_group, started_at);
