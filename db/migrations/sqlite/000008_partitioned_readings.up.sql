-- Nothing to do on SQLite: readings stay in one table. On PostgreSQL this
-- version partitions them by day of ingest time, so a purge drops whole
-- days; SQLite would drop a table in one statement holding its one writer
-- longer than a purge step, so it purges in short paced steps instead
-- (db/purge.go, docs/benchmarks.md).
SELECT 1;
