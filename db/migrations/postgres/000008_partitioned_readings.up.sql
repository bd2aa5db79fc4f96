-- Readings partitioned by day of ingest time (ts, UTC), so that a purge
-- drops whole days instead of deleting rows (db/partitions_postgres.go).
-- The gateway attaches each day's partition ahead of time, named
-- readings_pYYYYMMDD; readings_default takes what no day partition covers
-- (the readings stored before this version, and any day whose partition
-- could not be made in time) and is purged row by row.
--
-- A unique key of a partitioned table must hold the partition key, so the
-- primary key is (id, ts); ids still come from one sequence, which goes on
-- from where the table's identity stopped (ids are never reused).
ALTER TABLE readings RENAME TO readings_unpartitioned;
ALTER TABLE readings_unpartitioned RENAME CONSTRAINT readings_pkey TO readings_unpartitioned_pkey;
ALTER INDEX readings_asset_user_ts_idx RENAME TO readings_unpartitioned_asset_user_ts_idx;
ALTER INDEX readings_ts_id_idx RENAME TO readings_unpartitioned_ts_id_idx;
ALTER SEQUENCE readings_id_seq RENAME TO readings_unpartitioned_id_seq;

CREATE SEQUENCE readings_id_seq AS bigint;
SELECT setval('readings_id_seq', GREATEST((SELECT last_value FROM readings_unpartitioned_id_seq),
    (SELECT COALESCE(MAX(id), 0) FROM readings_unpartitioned), 1));

CREATE TABLE readings (
    id         bigint      NOT NULL DEFAULT nextval('readings_id_seq'),
    asset_code text COLLATE "C" NOT NULL,
    reading    jsonb       NOT NULL,
    user_ts    timestamptz NOT NULL,
    ts         timestamptz NOT NULL,
    PRIMARY KEY (id, ts)
) PARTITION BY RANGE (ts);
ALTER SEQUENCE readings_id_seq OWNED BY readings.id;
CREATE INDEX readings_asset_user_ts_idx ON readings (asset_code, user_ts DESC, id DESC);
CREATE INDEX readings_ts_id_idx ON readings (ts, id);
CREATE TABLE readings_default PARTITION OF readings DEFAULT;

INSERT INTO readings (id, asset_code, reading, user_ts, ts)
    SELECT id, asset_code, reading, user_ts, ts FROM readings_unpartitioned;
DROP TABLE readings_unpartitioned;
