-- Per-minute rollups of the readings' numeric values (see db/rollup.go).
-- One row per asset, numeric datapoint (top-level reading key) and minute of
-- sensor time (integer microseconds, like user_ts): how many numeric values,
-- their sum scaled by 2^-64 (so it cannot overflow), minimum and maximum.
-- Ingest adds to it in the same transaction as the readings; purges rebuild
-- the minutes they touch.
CREATE TABLE reading_rollups (
    asset_code TEXT    NOT NULL,
    datapoint  TEXT    NOT NULL,
    minute     INTEGER NOT NULL,
    count      INTEGER NOT NULL CHECK (count > 0),
    scaled_sum REAL    NOT NULL,
    min        REAL    NOT NULL,
    max        REAL    NOT NULL,
    PRIMARY KEY (asset_code, datapoint, minute)
) WITHOUT ROWID;
-- Purges rebuild whole minutes of an asset, every datapoint at once.
CREATE INDEX reading_rollups_minute_idx ON reading_rollups (asset_code, minute);

-- Minutes whose rollups are still to be built from the readings. This
-- migration lists every minute holding readings; the gateway builds them
-- when it opens the database (db.Open), so the numbers are extracted by the
-- same code as at ingest.
CREATE TABLE rollup_rebuilds (
    asset_code TEXT    NOT NULL,
    minute     INTEGER NOT NULL,
    PRIMARY KEY (asset_code, minute)
) WITHOUT ROWID;
INSERT INTO rollup_rebuilds (asset_code, minute)
    SELECT DISTINCT asset_code, user_ts - ((user_ts % 60000000) + 60000000) % 60000000 FROM readings;
