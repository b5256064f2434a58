-- Whether a workspace can take one more resource, asked by the statement that adds one
-- (addResourceIfRoom in src/workspaces/store.ts). It first locks the workspace's row, which
-- serialises concurrent adds to one workspace, and only then counts its resources. A VOLATILE
-- function takes a fresh snapshot for each statement it runs, so under READ COMMITTED the count sees
-- every add committed while it waited for the lock; a count written into the adding statement itself
-- would read that statement's older snapshot, and two racing adds could both pass the limit.
-- NULL when the workspace does not exist.
CREATE FUNCTION "workspace_has_room"("workspace" uuid, "capacity" integer) RETURNS boolean
LANGUAGE sql VOLATILE AS $$
  SELECT 1 FROM "workspaces" WHERE "id" = "workspace" FOR UPDATE;
  SELECT (SELECT count(*) FROM "workspace_resources" AS r WHERE r."workspace_id" = w."id") < "capacity"
  FROM "workspaces" AS w WHERE w."id" = "workspace";
$$;
