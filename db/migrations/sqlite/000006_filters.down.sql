DROP TABLE filter_pipelines;
DROP TABLE filters;
