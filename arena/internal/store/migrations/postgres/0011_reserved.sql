-- Tapp Arena schema, version 11: reserved for the compact deal records (branch compact, #14),
-- which bring their own 0011; this placeholder only keeps the versions contiguous on the
-- branch that adds version 12 and is dropped when the two are merged.
SELECT 1;
