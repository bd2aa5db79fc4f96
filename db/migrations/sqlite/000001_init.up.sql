-- edged schema, version 1 (SQLite).
--
-- Conventions (keep db/migrations/postgres/000001_init.up.sql in step):
--   * Times are INTEGER microseconds since the Unix epoch, UTC.
--   * JSON documents are TEXT checked with json_valid (except readings, where
--     the ingest path validates and the check would cost a parse per row).
--   * Booleans are INTEGER 0/1 with a CHECK.
--   * Enumerations are CHECK constraints.
--   * No time defaults: the application sets every time (one clock).
--   * No BEGIN/COMMIT here: golang-migrate wraps each file in a transaction.

-- Audit trail (spec 2.1).
CREATE TABLE audit_log (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    ts       INTEGER NOT NULL,
    source   TEXT    NOT NULL CHECK (source <> ''),
    severity TEXT    NOT NULL CHECK (severity IN ('SUCCESS', 'FAILURE', 'WARNING', 'INFORMATION')),
    details  TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(details))
);
CREATE INDEX audit_log_ts_idx ON audit_log (ts DESC, id DESC);
CREATE INDEX audit_log_source_ts_idx ON audit_log (source, ts DESC, id DESC);
CREATE INDEX audit_log_severity_ts_idx ON audit_log (severity, ts DESC, id DESC);

-- Configuration categories (spec 2.2). items is the JSON object of items.
CREATE TABLE categories (
    key          TEXT    PRIMARY KEY CHECK (key <> ''),
    description  TEXT    NOT NULL DEFAULT '',
    display_name TEXT    NOT NULL DEFAULT '',
    items        TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(items)),
    created_at   INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL
);

CREATE TABLE category_children (
    parent TEXT NOT NULL REFERENCES categories (key) ON DELETE CASCADE,
    child  TEXT NOT NULL REFERENCES categories (key) ON DELETE CASCADE,
    PRIMARY KEY (parent, child),
    CHECK (parent <> child)
);
CREATE INDEX category_children_child_idx ON category_children (child);

-- Schedules of processes (tasks and services).
CREATE TABLE schedules (
    id                  TEXT    PRIMARY KEY CHECK (length(id) = 36),
    name                TEXT    NOT NULL UNIQUE CHECK (name <> ''),
    process_name        TEXT    NOT NULL,
    type                TEXT    NOT NULL CHECK (type IN ('STARTUP', 'TIMED', 'INTERVAL', 'MANUAL')),
    repeat_seconds      INTEGER NOT NULL DEFAULT 0 CHECK (repeat_seconds >= 0),
    time_of_day_seconds INTEGER CHECK (time_of_day_seconds BETWEEN 0 AND 86399),
    day                 INTEGER CHECK (day BETWEEN 1 AND 7),
    exclusive           INTEGER NOT NULL DEFAULT 1 CHECK (exclusive IN (0, 1)),
    enabled             INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
    created_at          INTEGER NOT NULL,
    updated_at          INTEGER NOT NULL
);

-- Task executions (spec 2.3). Interrupted marks a task that was running when
-- the gateway stopped without finishing it.
CREATE TABLE tasks (
    id           TEXT    PRIMARY KEY CHECK (length(id) = 36),
    name         TEXT    NOT NULL,
    process_name TEXT    NOT NULL,
    state        TEXT    NOT NULL CHECK (state IN ('Running', 'Complete', 'Cancelled', 'Interrupted')),
    start_time   INTEGER NOT NULL,
    end_time     INTEGER,
    exit_code    INTEGER,
    reason       TEXT    NOT NULL DEFAULT '',
    pid          INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX tasks_name_start_idx ON tasks (name, start_time DESC, id DESC);
CREATE INDEX tasks_start_idx ON tasks (start_time DESC, id DESC);

-- Statistics (spec 2.7). previous_value is value at the last history snapshot.
CREATE TABLE statistics (
    key            TEXT    PRIMARY KEY CHECK (key <> ''),
    description    TEXT    NOT NULL DEFAULT '',
    value          INTEGER NOT NULL DEFAULT 0,
    previous_value INTEGER NOT NULL DEFAULT 0
);

-- One row per statistic per snapshot; value is the delta since the previous one.
CREATE TABLE statistics_history (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    key        TEXT    NOT NULL,
    value      INTEGER NOT NULL,
    history_ts INTEGER NOT NULL
);
CREATE INDEX statistics_history_ts_idx ON statistics_history (history_ts);
CREATE INDEX statistics_history_key_ts_idx ON statistics_history (key, history_ts);

-- Buffered readings (spec 2.4). user_ts is the sensor timestamp, ts the
-- ingest time. AUTOINCREMENT: ids are never reused after a purge.
CREATE TABLE readings (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    asset_code TEXT    NOT NULL,
    reading    TEXT    NOT NULL,
    user_ts    INTEGER NOT NULL,
    ts         INTEGER NOT NULL
);
CREATE INDEX readings_asset_user_ts_idx ON readings (asset_code, user_ts DESC, id DESC);
CREATE INDEX readings_ts_id_idx ON readings (ts, id);

-- Per-asset summary, maintained with every ingest batch and every purge, so
-- listing assets never counts readings.
CREATE TABLE asset_counts (
    asset_code     TEXT    PRIMARY KEY,
    count          INTEGER NOT NULL DEFAULT 0 CHECK (count >= 0),
    oldest_user_ts INTEGER,
    newest_user_ts INTEGER
);

-- Position of each north service/task in the readings stream, keyed on (ts, id).
-- last_ts NULL means nothing has been sent yet.
CREATE TABLE stream_positions (
    name       TEXT    PRIMARY KEY CHECK (name <> ''),
    last_ts    INTEGER,
    last_id    INTEGER NOT NULL DEFAULT 0,
    updated_at INTEGER NOT NULL
);

-- Asset tracker (spec 2.8): first sighting per asset/event/service/plugin.
CREATE TABLE asset_tracker (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    asset         TEXT    NOT NULL,
    event         TEXT    NOT NULL CHECK (event IN ('Ingest', 'Filter', 'Egress')),
    service       TEXT    NOT NULL,
    plugin        TEXT    NOT NULL,
    edge          TEXT    NOT NULL DEFAULT '',
    ts            INTEGER NOT NULL,
    deprecated_ts INTEGER,
    UNIQUE (asset, event, service, plugin)
);
CREATE INDEX asset_tracker_service_idx ON asset_tracker (service, asset);

-- Roles (spec 2.5): a fixed set, seeded here.
CREATE TABLE roles (
    id          INTEGER PRIMARY KEY,
    name        TEXT    NOT NULL UNIQUE,
    description TEXT    NOT NULL DEFAULT ''
);
INSERT INTO roles (id, name, description) VALUES
    (1, 'admin', 'All create, read, update and delete privileges'),
    (2, 'user', 'All operations plus management of the own profile'),
    (3, 'view', 'View configuration only'),
    (4, 'data-view', 'Read buffered data only'),
    (5, 'control', 'Editor rights plus control scripts and pipelines');

-- Users. Usernames are unique case-insensitively (ASCII case folding).
CREATE TABLE users (
    id                  INTEGER PRIMARY KEY AUTOINCREMENT,
    username            TEXT    NOT NULL CHECK (username <> ''),
    password_hash       TEXT    NOT NULL DEFAULT '',
    role_id             INTEGER NOT NULL DEFAULT 2 REFERENCES roles (id),
    access_method       TEXT    NOT NULL DEFAULT 'any' CHECK (access_method IN ('any', 'pwd', 'cert')),
    real_name           TEXT    NOT NULL DEFAULT '',
    description         TEXT    NOT NULL DEFAULT '',
    password_changed_at INTEGER,
    failed_logins       INTEGER NOT NULL DEFAULT 0 CHECK (failed_logins >= 0),
    locked_until        INTEGER,
    created_at          INTEGER NOT NULL
);
CREATE UNIQUE INDEX users_username_lower_idx ON users (lower(username));
CREATE INDEX users_role_idx ON users (role_id);

CREATE TABLE password_history (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id       INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    password_hash TEXT    NOT NULL,
    changed_at    INTEGER NOT NULL
);
CREATE INDEX password_history_user_idx ON password_history (user_id, changed_at DESC);

-- Login sessions; only a hash of the token is stored.
CREATE TABLE sessions (
    token_hash     TEXT    PRIMARY KEY,
    user_id        INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at     INTEGER NOT NULL,
    last_seen_at   INTEGER NOT NULL,
    client_address TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX sessions_user_idx ON sessions (user_id);

-- Configured services (spec 2.6, create body types).
CREATE TABLE services (
    name        TEXT    PRIMARY KEY CHECK (name <> ''),
    type        TEXT    NOT NULL CHECK (type IN ('south', 'north', 'notification', 'dispatcher')),
    plugin      TEXT    NOT NULL DEFAULT '',
    enabled     INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
    schedule_id TEXT    REFERENCES schedules (id) ON DELETE SET NULL,
    created_at  INTEGER NOT NULL
);
CREATE INDEX services_schedule_idx ON services (schedule_id);

-- Data persisted by plugins at shutdown (spec 4.7).
CREATE TABLE plugin_data (
    service_name TEXT    NOT NULL,
    plugin_name  TEXT    NOT NULL,
    data         TEXT    NOT NULL CHECK (json_valid(data)),
    updated_at   INTEGER NOT NULL,
    PRIMARY KEY (service_name, plugin_name)
);

-- Package repository (single row) and installed packages (spec 4.9).
CREATE TABLE package_repository (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    url        TEXT    NOT NULL,
    version    TEXT    NOT NULL DEFAULT 'latest',
    updated_at INTEGER NOT NULL
);

CREATE TABLE installed_packages (
    name         TEXT    PRIMARY KEY,
    version      TEXT    NOT NULL,
    installed_at INTEGER NOT NULL
);
