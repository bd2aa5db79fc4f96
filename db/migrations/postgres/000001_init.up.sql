-- edged schema, version 1 (PostgreSQL 15+).
--
-- Conventions (keep db/migrations/sqlite/000001_init.up.sql in step):
--   * Times are timestamptz (microsecond precision), always written in UTC.
--   * JSON documents are jsonb.
--   * Keys and names that are listed in order use COLLATE "C", so ordering is
--     bytewise like SQLite's BINARY whatever the database's locale.
--   * Enumerations are CHECK constraints.
--   * No time defaults: the application sets every time (one clock).
--   * Generated ids are identities; nothing relies on them being gap-free.

-- Audit trail (spec 2.1).
CREATE TABLE audit_log (
    id       bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    ts       timestamptz NOT NULL,
    source   text        NOT NULL CHECK (source <> ''),
    severity text        NOT NULL CHECK (severity IN ('SUCCESS', 'FAILURE', 'WARNING', 'INFORMATION')),
    details  jsonb       NOT NULL DEFAULT '{}'
);
CREATE INDEX audit_log_ts_idx ON audit_log (ts DESC, id DESC);
CREATE INDEX audit_log_source_ts_idx ON audit_log (source, ts DESC, id DESC);
CREATE INDEX audit_log_severity_ts_idx ON audit_log (severity, ts DESC, id DESC);

-- Configuration categories (spec 2.2). items is the JSON object of items.
CREATE TABLE categories (
    key          text COLLATE "C" PRIMARY KEY CHECK (key <> ''),
    description  text        NOT NULL DEFAULT '',
    display_name text        NOT NULL DEFAULT '',
    items        jsonb       NOT NULL DEFAULT '{}',
    created_at   timestamptz NOT NULL,
    updated_at   timestamptz NOT NULL
);

CREATE TABLE category_children (
    parent text COLLATE "C" NOT NULL REFERENCES categories (key) ON DELETE CASCADE,
    child  text COLLATE "C" NOT NULL REFERENCES categories (key) ON DELETE CASCADE,
    PRIMARY KEY (parent, child),
    CHECK (parent <> child)
);
CREATE INDEX category_children_child_idx ON category_children (child);

-- Schedules of processes (tasks and services).
CREATE TABLE schedules (
    id                  text COLLATE "C" PRIMARY KEY CHECK (length(id) = 36),
    name                text COLLATE "C" NOT NULL UNIQUE CHECK (name <> ''),
    process_name        text        NOT NULL,
    type                text        NOT NULL CHECK (type IN ('STARTUP', 'TIMED', 'INTERVAL', 'MANUAL')),
    repeat_seconds      bigint      NOT NULL DEFAULT 0 CHECK (repeat_seconds >= 0),
    time_of_day_seconds integer     CHECK (time_of_day_seconds BETWEEN 0 AND 86399),
    day                 smallint    CHECK (day BETWEEN 1 AND 7),
    exclusive           boolean     NOT NULL DEFAULT true,
    enabled             boolean     NOT NULL DEFAULT true,
    created_at          timestamptz NOT NULL,
    updated_at          timestamptz NOT NULL
);

-- Task executions (spec 2.3). Interrupted marks a task that was running when
-- the gateway stopped without finishing it.
CREATE TABLE tasks (
    id           text COLLATE "C" PRIMARY KEY CHECK (length(id) = 36),
    name         text COLLATE "C" NOT NULL,
    process_name text        NOT NULL,
    state        text        NOT NULL CHECK (state IN ('Running', 'Complete', 'Cancelled', 'Interrupted')),
    start_time   timestamptz NOT NULL,
    end_time     timestamptz,
    exit_code    integer,
    reason       text        NOT NULL DEFAULT '',
    pid          integer     NOT NULL DEFAULT 0
);
CREATE INDEX tasks_name_start_idx ON tasks (name, start_time DESC, id DESC);
CREATE INDEX tasks_start_idx ON tasks (start_time DESC, id DESC);

-- Statistics (spec 2.7). previous_value is value at the last history snapshot.
CREATE TABLE statistics (
    key            text COLLATE "C" PRIMARY KEY CHECK (key <> ''),
    description    text   NOT NULL DEFAULT '',
    value          bigint NOT NULL DEFAULT 0,
    previous_value bigint NOT NULL DEFAULT 0
);

-- One row per statistic per snapshot; value is the delta since the previous one.
CREATE TABLE statistics_history (
    id         bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    key        text COLLATE "C" NOT NULL,
    value      bigint      NOT NULL,
    history_ts timestamptz NOT NULL
);
CREATE INDEX statistics_history_ts_idx ON statistics_history (history_ts);
CREATE INDEX statistics_history_key_ts_idx ON statistics_history (key, history_ts);

-- Buffered readings (spec 2.4). user_ts is the sensor timestamp, ts the
-- ingest time.
CREATE TABLE readings (
    id         bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    asset_code text COLLATE "C" NOT NULL,
    reading    jsonb       NOT NULL,
    user_ts    timestamptz NOT NULL,
    ts         timestamptz NOT NULL
);
CREATE INDEX readings_asset_user_ts_idx ON readings (asset_code, user_ts DESC, id DESC);
CREATE INDEX readings_ts_id_idx ON readings (ts, id);

-- Per-asset summary, maintained with every ingest batch and every purge, so
-- listing assets never counts readings.
CREATE TABLE asset_counts (
    asset_code     text COLLATE "C" PRIMARY KEY,
    count          bigint NOT NULL DEFAULT 0 CHECK (count >= 0),
    oldest_user_ts timestamptz,
    newest_user_ts timestamptz
);

-- Position of each north service/task in the readings stream, keyed on (ts, id).
-- last_ts NULL means nothing has been sent yet.
CREATE TABLE stream_positions (
    name       text COLLATE "C" PRIMARY KEY CHECK (name <> ''),
    last_ts    timestamptz,
    last_id    bigint      NOT NULL DEFAULT 0,
    updated_at timestamptz NOT NULL
);

-- Asset tracker (spec 2.8): first sighting per asset/event/service/plugin.
CREATE TABLE asset_tracker (
    id            bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    asset         text COLLATE "C" NOT NULL,
    event         text        NOT NULL CHECK (event IN ('Ingest', 'Filter', 'Egress')),
    service       text COLLATE "C" NOT NULL,
    plugin        text        NOT NULL,
    edge          text        NOT NULL DEFAULT '',
    ts            timestamptz NOT NULL,
    deprecated_ts timestamptz,
    UNIQUE (asset, event, service, plugin)
);
CREATE INDEX asset_tracker_service_idx ON asset_tracker (service, asset);

-- Roles (spec 2.5): a fixed set, seeded here.
CREATE TABLE roles (
    id          integer PRIMARY KEY,
    name        text    NOT NULL UNIQUE,
    description text    NOT NULL DEFAULT ''
);
INSERT INTO roles (id, name, description) VALUES
    (1, 'admin', 'All create, read, update and delete privileges'),
    (2, 'user', 'All operations plus management of the own profile'),
    (3, 'view', 'View configuration only'),
    (4, 'data-view', 'Read buffered data only'),
    (5, 'control', 'Editor rights plus control scripts and pipelines');

-- Users. Usernames are unique case-insensitively (lower()).
CREATE TABLE users (
    id                  bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    username            text        NOT NULL CHECK (username <> ''),
    password_hash       text        NOT NULL DEFAULT '',
    role_id             integer     NOT NULL DEFAULT 2 REFERENCES roles (id),
    access_method       text        NOT NULL DEFAULT 'any' CHECK (access_method IN ('any', 'pwd', 'cert')),
    real_name           text        NOT NULL DEFAULT '',
    description         text        NOT NULL DEFAULT '',
    password_changed_at timestamptz,
    failed_logins       integer     NOT NULL DEFAULT 0 CHECK (failed_logins >= 0),
    locked_until        timestamptz,
    created_at          timestamptz NOT NULL
);
CREATE UNIQUE INDEX users_username_lower_idx ON users (lower(username));
CREATE INDEX users_role_idx ON users (role_id);

CREATE TABLE password_history (
    id            bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id       bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    password_hash text        NOT NULL,
    changed_at    timestamptz NOT NULL
);
CREATE INDEX password_history_user_idx ON password_history (user_id, changed_at DESC);

-- Login sessions; only a hash of the token is stored.
CREATE TABLE sessions (
    token_hash     text        PRIMARY KEY,
    user_id        bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at     timestamptz NOT NULL,
    last_seen_at   timestamptz NOT NULL,
    client_address text        NOT NULL DEFAULT ''
);
CREATE INDEX sessions_user_idx ON sessions (user_id);

-- Configured services (spec 2.6, create body types).
CREATE TABLE services (
    name        text COLLATE "C" PRIMARY KEY CHECK (name <> ''),
    type        text        NOT NULL CHECK (type IN ('south', 'north', 'notification', 'dispatcher')),
    plugin      text        NOT NULL DEFAULT '',
    enabled     boolean     NOT NULL DEFAULT true,
    schedule_id text COLLATE "C" REFERENCES schedules (id) ON DELETE SET NULL,
    created_at  timestamptz NOT NULL
);
CREATE INDEX services_schedule_idx ON services (schedule_id);

-- Data persisted by plugins at shutdown (spec 4.7).
CREATE TABLE plugin_data (
    service_name text COLLATE "C" NOT NULL,
    plugin_name  text COLLATE "C" NOT NULL,
    data         jsonb       NOT NULL,
    updated_at   timestamptz NOT NULL,
    PRIMARY KEY (service_name, plugin_name)
);

-- Package repository (single row) and installed packages (spec 4.9).
CREATE TABLE package_repository (
    id         integer     PRIMARY KEY CHECK (id = 1),
    url        text        NOT NULL,
    version    text        NOT NULL DEFAULT 'latest',
    updated_at timestamptz NOT NULL
);

CREATE TABLE installed_packages (
    name         text COLLATE "C" PRIMARY KEY,
    version      text        NOT NULL,
    installed_at timestamptz NOT NULL
);
