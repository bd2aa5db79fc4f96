-- Filter instances: a named instance of a filter plugin, configured by the
-- category of the same name.
CREATE TABLE filters (
    name       text COLLATE "C" PRIMARY KEY CHECK (name <> ''),
    plugin     text        NOT NULL CHECK (plugin <> ''),
    created_at timestamptz NOT NULL
);

-- The filter pipeline of each service: its filter instances in order.
CREATE TABLE filter_pipelines (
    service  text COLLATE "C" NOT NULL REFERENCES services (name) ON DELETE CASCADE,
    position integer NOT NULL CHECK (position >= 0),
    filter   text COLLATE "C" NOT NULL REFERENCES filters (name),
    PRIMARY KEY (service, position),
    UNIQUE (service, filter)
);
CREATE INDEX filter_pipelines_filter_idx ON filter_pipelines (filter);
