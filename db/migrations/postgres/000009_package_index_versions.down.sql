DROP TABLE package_index_versions;
