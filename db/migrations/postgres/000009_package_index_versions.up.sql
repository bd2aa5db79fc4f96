-- The highest index version the gateway accepted from each package
-- repository (by its URL): an index older than it is a rollback and is
-- refused, so the version only ever grows here.
CREATE TABLE package_index_versions (
    repository  text        NOT NULL PRIMARY KEY,
    version     bigint      NOT NULL CHECK (version >= 1),
    accepted_at timestamptz NOT NULL
);
