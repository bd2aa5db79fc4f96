-- Directory users cannot be represented without access method 'ldap':
-- they are removed (they are created again at their next login).
DROP TABLE login_name_failures;
DELETE FROM users WHERE access_method = 'ldap';

CREATE TEMP TABLE keep_password_history AS SELECT * FROM password_history;
CREATE TEMP TABLE keep_sessions AS SELECT * FROM sessions;
CREATE TEMP TABLE keep_login_failures AS SELECT * FROM login_failures;
CREATE TEMP TABLE keep_users_seq AS SELECT seq FROM sqlite_sequence WHERE name = 'users';

CREATE TABLE users_old (
    id                  INTEGER PRIMARY KEY AUTOINCREMENT,
    username            TEXT    NOT NULL CHECK (username <> ''),
    password_hash       TEXT    NOT NULL DEFAULT '',
    role_id             INTEGER NOT NULL DEFAULT 2 REFERENCES roles (id),
    access_method       TEXT    NOT NULL DEFAULT 'any' CHECK (access_method IN ('any', 'pwd', 'cert')),
    real_name           TEXT    NOT NULL DEFAULT '',
    description         TEXT    NOT NULL DEFAULT '',
    password_changed_at INTEGER,
    created_at          INTEGER NOT NULL
);
INSERT INTO users_old (id, username, password_hash, role_id, access_method, real_name, description, password_changed_at, created_at)
    SELECT id, username, password_hash, role_id, access_method, real_name, description, password_changed_at, created_at FROM users;
DROP TABLE users;
ALTER TABLE users_old RENAME TO users;
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
