-- Readings a north destination refused for good, set aside so the stream
-- goes on: copies of the readings (kept whatever the purge does), why they
-- were refused, and whether an operator asked for them to be sent again.
CREATE TABLE north_set_aside (
    id         bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name       text COLLATE "C" NOT NULL CHECK (name <> ''),
    reading_id bigint      NOT NULL,
    asset_code text COLLATE "C" NOT NULL,
    reading    jsonb       NOT NULL,
    user_ts    timestamptz NOT NULL,
    reason     text        NOT NULL DEFAULT '',
    set_at     timestamptz NOT NULL,
    resend     boolean     NOT NULL DEFAULT false
);
CREATE INDEX north_set_aside_name_idx ON north_set_aside (name, id);
