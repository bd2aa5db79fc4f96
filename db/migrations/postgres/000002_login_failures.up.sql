-- Failed logins are counted per user and client address (the TCP peer
-- address), so one client's failures lock only that client out of the
-- account. They replace the per-user count of users.failed_logins.
CREATE TABLE login_failures (
    user_id         bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    client_address  text        NOT NULL,
    failures        integer     NOT NULL CHECK (failures >= 0),
    locked_until    timestamptz,
    last_attempt_at timestamptz NOT NULL,
    PRIMARY KEY (user_id, client_address)
);
CREATE INDEX login_failures_last_attempt_idx ON login_failures (last_attempt_at);

ALTER TABLE users DROP COLUMN failed_logins;
ALTER TABLE users DROP COLUMN locked_until;
