-- Tapp Arena schema, version 14: reserved for the hosting branch's migration (submissions),
-- which replaces this file when both are merged. It changes nothing.
SELECT 1;
