-- Readings a north destination refused for good, set aside so the stream
-- goes on: copies of the readings (kept whatever the purge does), why they
-- were refused, and whether an operator asked for them to be sent again.
CREATE TABLE north_set_aside (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    name       TEXT    NOT NULL CHECK (name <> ''),
    reading_id INTEGER NOT NULL,
    asset_code TEXT    NOT NULL,
    reading    TEXT    NOT NULL,
    user_ts    INTEGER NOT NULL,
    reason     TEXT    NOT NULL DEFAULT '',
    set_at     INTEGER NOT NULL,
    resend     INTEGER NOT NULL DEFAULT 0 CHECK (resend IN (0, 1))
);
CREATE INDEX north_set_aside_name_idx ON north_set_aside (name, id);
