-- Adding a resource is a transaction that locks the workspace's row, counts and inserts
-- (insertResourceIfRoom in src/workspaces/store.ts); the function of 0002 has no caller.
DROP FUNCTION IF EXISTS "workspace_has_room"(uuid, integer);
