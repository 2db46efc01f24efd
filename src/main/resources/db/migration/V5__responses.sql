-- Responses answered through the Responses API (POST /v1/responses), kept so that a later call
-- naming one in previous_response_id carries its turns, and so that GET and DELETE
-- /v1/responses/{id} find it. Every replica that shares the store sees every response.
--
-- owner is who may read or delete the response: an opaque name given by the gateway (a key's
-- hash, or a fixed name for the master key or an open gateway); a response asked for by anyone
-- else is not found. response is the response object as JSON; conversation is a JSON array of
-- the turns a follow-up carries (the earlier turns, this call's input and its output), both as
-- TEXT like every JSON column here. size_bytes is the UTF-8 length of the two.
--
-- A response is served until expires_at, and pruned (expired rows, then the oldest beyond a
-- row count) by created_at and expires_at.

CREATE TABLE sluice_responses (
    response_id  VARCHAR(255)             NOT NULL,
    owner        VARCHAR(255)             NOT NULL,
    model_group  VARCHAR(255)             NOT NULL,
    created_at   TIMESTAMP WITH TIME ZONE NOT NULL,
    expires_at   TIMESTAMP WITH TIME ZONE NOT NULL,
    response     TEXT                     NOT NULL,
    conversation TEXT                     NOT NULL,
    size_bytes   BIGINT                   NOT NULL,
    CONSTRAINT sluice_responses_pkey PRIMARY KEY (response_id)
);

CREATE INDEX sluice_responses_created_at_idx ON sluice_responses (created_at, response_id);
CREATE INDEX sluice_responses_expires_at_idx ON sluice_responses (expires_at);
