DROP TABLE rollup_rebuilds;
DROP TABLE reading_rollups;
