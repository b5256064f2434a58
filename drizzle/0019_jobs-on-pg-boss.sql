-- Background jobs moved to pg-boss (its own schema, "pgboss", installed and migrated by pg-boss at start): the home-made queue's table goes.
DROP TABLE "jobs" CASCADE;