DROP TABLE reading_deletions;
