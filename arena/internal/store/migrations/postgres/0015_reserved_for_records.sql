-- Tapp Arena schema, version 15: reserved for the records branch's migration, which replaces
-- this file when both are merged. It changes nothing.
SELECT 1;
