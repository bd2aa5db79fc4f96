-- Users who log in through an LDAP directory have access method 'ldap', and
-- failed logins of names the gateway has no user for (yet) are counted by
-- name, so that guessing directory accounts is locked out as well.
ALTER TABLE users DROP CONSTRAINT users_access_method_check;
ALTER TABLE users ADD CONSTRAINT users_access_method_check CHECK (access_method IN ('any', 'pwd', 'cert', 'ldap'));

-- Failed logins of a name with no user, per name (lower case) and client
-- address, under the rules of login_failures.
CREATE TABLE login_name_failures (
    username        text        NOT NULL,
    client_address  text        NOT NULL,
    failures        integer     NOT NULL CHECK (failures >= 0),
    locked_until    timestamptz,
    last_attempt_at timestamptz NOT NULL,
    PRIMARY KEY (username, client_address)
);
CREATE INDEX login_name_failures_last_attempt_idx ON login_name_failures (last_attempt_at);
