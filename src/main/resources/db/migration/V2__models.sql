-- Deployments added through the model API (/model/new, /model/update), served by every
-- replica that shares the store. Deployments of the config file are never stored: the file
-- stays their source.
--
-- entry is the model_list entry as JSON (model_name, litellm_params, model_info), written
-- as the API received it: os.environ/ references stay references, resolved by each replica
-- from its own environment. updated_at tells replicas that an entry changed.

CREATE TABLE sluice_models (
    model_id   VARCHAR(255)             NOT NULL,
    model_name VARCHAR(255)             NOT NULL,
    entry      TEXT                     NOT NULL,
    created_at TIMESTAMP WITH TIME ZONE NOT NULL,
    updated_at TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT sluice_models_pkey PRIMARY KEY (model_id)
);
