-- Internal users, team members, organizations and customers (LiteLLM's end users).
--
-- Same rules as V1: one script for PostgreSQL and H2, JSON as TEXT, money NUMERIC(30, 12),
-- no foreign keys. A user, an organization and a customer hold a budget in the same columns
-- as a key and a team (models, max_budget, budget_duration, budget_reset_at, spend,
-- rpm_limit, tpm_limit), so one set of statements adds their spend and resets it.

CREATE TABLE sluice_users (
    user_id               VARCHAR(255)             NOT NULL,
    user_email            VARCHAR(255),
    user_role             VARCHAR(64)              NOT NULL,  -- proxy_admin, proxy_admin_viewer, internal_user, internal_user_viewer
    models                TEXT                     NOT NULL,  -- JSON array of model groups; [] means all
    max_budget            NUMERIC(30, 12),
    budget_duration       VARCHAR(32),
    budget_reset_at       TIMESTAMP WITH TIME ZONE,
    spend                 NUMERIC(30, 12)          NOT NULL DEFAULT 0,
    rpm_limit             BIGINT,
    tpm_limit             BIGINT,
    max_parallel_requests INTEGER,
    metadata              TEXT                     NOT NULL,  -- JSON object
    created_at            TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT sluice_users_pkey PRIMARY KEY (user_id)
);

CREATE INDEX sluice_users_email_idx ON sluice_users (user_email);
CREATE INDEX sluice_users_budget_reset_at_idx ON sluice_users (budget_reset_at);

-- Who belongs to a team and as what: LiteLLM's members_with_roles and team_memberships in one row.
CREATE TABLE sluice_team_members (
    team_id            VARCHAR(255)             NOT NULL,
    user_id            VARCHAR(255)             NOT NULL,
    role               VARCHAR(16)              NOT NULL,  -- admin or user
    max_budget_in_team NUMERIC(30, 12),
    created_at         TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT sluice_team_members_pkey PRIMARY KEY (team_id, user_id)
);

CREATE INDEX sluice_team_members_user_idx ON sluice_team_members (user_id);

CREATE TABLE sluice_organizations (
    organization_id    VARCHAR(255)             NOT NULL,
    organization_alias VARCHAR(255),
    models             TEXT                     NOT NULL,
    max_budget         NUMERIC(30, 12),
    budget_duration    VARCHAR(32),
    budget_reset_at    TIMESTAMP WITH TIME ZONE,
    spend              NUMERIC(30, 12)          NOT NULL DEFAULT 0,
    rpm_limit          BIGINT,
    tpm_limit          BIGINT,
    metadata           TEXT                     NOT NULL,
    created_at         TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT sluice_organizations_pkey PRIMARY KEY (organization_id)
);

CREATE INDEX sluice_organizations_budget_reset_at_idx ON sluice_organizations (budget_reset_at);

ALTER TABLE sluice_teams ADD COLUMN organization_id VARCHAR(255);

-- A customer is the "user" a call names in its body: LiteLLM's LiteLLM_EndUserTable.
CREATE TABLE sluice_customers (
    user_id         VARCHAR(255)             NOT NULL,
    alias           VARCHAR(255),
    blocked         BOOLEAN                  NOT NULL DEFAULT FALSE,
    models          TEXT                     NOT NULL,  -- always []: LiteLLM's end users have no model list
    max_budget      NUMERIC(30, 12),
    budget_duration VARCHAR(32),
    budget_reset_at TIMESTAMP WITH TIME ZONE,
    spend           NUMERIC(30, 12)          NOT NULL DEFAULT 0,
    rpm_limit       BIGINT,
    tpm_limit       BIGINT,
    metadata        TEXT                     NOT NULL,  -- JSON object; holds default_model and allowed_model_region as given
    created_at      TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT sluice_customers_pkey PRIMARY KEY (user_id)
);

CREATE INDEX sluice_customers_budget_reset_at_idx ON sluice_customers (budget_reset_at);
