-- Back to one readings table (version 1's shape), every partition's
-- readings kept, ids going on from the sequence.
ALTER TABLE readings RENAME TO readings_partitioned;
ALTER INDEX readings_asset_user_ts_idx RENAME TO readings_partitioned_asset_user_ts_idx;
ALTER INDEX readings_ts_id_idx RENAME TO readings_partitioned_ts_id_idx;
ALTER INDEX readings_pkey RENAME TO readings_partitioned_pkey;
ALTER SEQUENCE readings_id_seq RENAME TO readings_partitioned_id_seq;

CREATE TABLE readings (
    id         bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    asset_code text COLLATE "C" NOT NULL,
    reading    jsonb       NOT NULL,
    user_ts    timestamptz NOT NULL,
    ts         timestamptz NOT NULL
);
CREATE INDEX readings_asset_user_ts_idx ON readings (asset_code, user_ts DESC, id DESC);
CREATE INDEX readings_ts_id_idx ON readings (ts, id);

INSERT INTO readings (id, asset_code, reading, user_ts, ts) OVERRIDING SYSTEM VALUE
    SELECT id, asset_code, reading, user_ts, ts FROM readings_partitioned;
SELECT setval(pg_get_serial_sequence('readings', 'id'), GREATEST((SELECT last_value FROM readings_partitioned_id_seq),
    (SELECT COALESCE(MAX(id), 0) FROM readings), 1));
DROP TABLE readings_partitioned;
