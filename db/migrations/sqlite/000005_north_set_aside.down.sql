DROP TABLE north_set_aside;
