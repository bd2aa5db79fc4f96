-- Filter instances: a named instance of a filter plugin, configured by the
-- category of the same name.
CREATE TABLE filters (
    name       TEXT    PRIMARY KEY CHECK (name <> ''),
    plugin     TEXT    NOT NULL CHECK (plugin <> ''),
    created_at INTEGER NOT NULL
);

-- The filter pipeline of each service: its filter instances in order.
CREATE TABLE filter_pipelines (
    service  TEXT    NOT NULL REFERENCES services (name) ON DELETE CASCADE,
    position INTEGER NOT NULL CHECK (position >= 0),
    filter   TEXT    NOT NULL REFERENCES filters (name),
    PRIMARY KEY (service, position),
    UNIQUE (service, filter)
);
CREATE INDEX filter_pipelines_filter_idx ON filter_pipelines (filter);
