-- Deletions of an asset's readings that took effect but whose rows are
-- still being removed (db/deletions.go): every reading of asset_code with
-- an id up to max_id is deleted already as far as every read, count and
-- rollup is concerned, and a background sweep removes the rows in paced
-- steps, dropping the row here when it is done. Almost always empty.
CREATE TABLE reading_deletions (
    asset_code TEXT    PRIMARY KEY,
    max_id     INTEGER NOT NULL,
    deleted_at INTEGER NOT NULL
) WITHOUT ROWID;
