-- Custom roles (issue 30): the roles that manage staff gain adding, changing and deleting roles.
UPDATE "roles" SET "permissions" = "permissions" || ARRAY['roles.add_role', 'roles.change_role', 'roles.delete_role']::text[] WHERE 'users.change_productuser' = ANY("permissions") AND NOT ('roles.add_role' = ANY("permissions"));
