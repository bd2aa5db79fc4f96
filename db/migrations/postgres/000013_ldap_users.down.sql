-- Directory users cannot be represented without access method 'ldap':
-- they are removed (they are created again at their next login).
DROP TABLE login_name_failures;
DELETE FROM users WHERE access_method = 'ldap';
ALTER TABLE users DROP CONSTRAINT users_access_method_check;
ALTER TABLE users ADD CONSTRAINT users_access_method_check CHECK (access_method IN ('any', 'pwd', 'cert'));
