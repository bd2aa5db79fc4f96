-- Users who log in through an LDAP directory have access method 'ldap', and
-- failed logins of names the gateway has no user for (yet) are counted by
-- name, so that guessing directory accounts is locked out as well.
--
-- SQLite cannot change a CHECK constraint in place, so users is rebuilt.
-- Foreign keys are enforced inside the migration's transaction, where they
-- cannot be switched off: dropping users deletes the rows that reference it
-- (ON DELETE CASCADE), so those rows are kept aside and put back, and the
-- AUTOINCREMENT position is kept so ids of deleted users are not reused.
CREATE TEMP TABLE keep_password_history AS SELECT * FROM password_history;
CREATE TEMP TABLE keep_sessions AS SELECT * FROM sessions;
CREATE TEMP TABLE keep_login_failures AS SELECT * FROM login_failures;
CREATE TEMP TABLE keep_users_seq AS SELECT seq FROM sqlite_sequence WHERE name = 'users';

CREATE TABLE users_new (
    id                  INTEGER PRIMARY KEY AUTOINCREMENT,
    username            TEXT    NOT NULL CHECK (username <> ''),
    password_hash       TEXT    NOT NULL DEFAULT '',
    role_id             INTEGER NOT NULL DEFAULT 2 REFERENCES roles (id),
    access_method       TEXT    NOT NULL DEFAULT 'any' CHECK (access_method IN ('any', 'pwd', 'cert', 'ldap')),
    real_name           TEXT    NOT NULL DEFAULT '',
    description         TEXT    NOT NULL DEFAULT '',
    password_changed_at INTEGER,
    created_at          INTEGER NOT NULL
);
INSERT INTO users_new (id, username, password_hash, role_id, access_method, real_name, description, password_changed_at, created_at)
    SELECT id, username, password_hash, role_id, access_method, real_name, description, password_changed_at, created_at FROM users;
DROP TABLE users;
ALTER TABLE users_new RENAME TO users;
CREATE UNIQUE INDEX users_username_lower_idx ON users (lower(username));
CREATE INDEX users_role_idx ON users (role_id);
UPDATE sqlite_sequence SET seq = max(seq, (SELECT seq FROM keep_users_seq)) WHERE name = 'users' AND EXISTS (SELECT 1 FROM keep_users_seq);

INSERT INTO password_history SELECT * FROM keep_password_history;
INSERT INTO sessions SELECT * FROM keep_sessions;
INSERT INTO login_failures SELECT * FROM keep_login_failures;
DROP TABLE temp.keep_password_history;
DROP TABLE temp.keep_sessions;
DROP TABLE temp.keep_login_failures;
DROP TABLE temp.keep_users_seq;

-- Failed logins of a name with no user, per name (lower case) and client
-- address, under the rules of login_failures.
CREATE TABLE login_name_failures (
    username        TEXT    NOT NULL,
    client_address  TEXT    NOT NULL,
    failures        INTEGER NOT NULL CHECK (failures >= 0),
    locked_until    INTEGER,
    last_attempt_at INTEGER NOT NULL,
    PRIMARY KEY (username, client_address)
);
CREATE INDEX login_name_failures_last_attempt_idx ON login_name_failures (last_attempt_at);
