ALTER TABLE users ADD COLUMN failed_logins integer NOT NULL DEFAULT 0 CHECK (failed_logins >= 0);
ALTER TABLE users ADD COLUMN locked_until timestamptz;
DROP TABLE login_failures;
