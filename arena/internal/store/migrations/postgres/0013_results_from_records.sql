-- Tapp Arena schema, version 13: a deal stored as a compact record keeps no rows of results.
-- Its results are rebuilt on reading from its seating and its outcome (the outcome from a
-- replay of its moves), as the referee settled them (domain.ResultsOf); results stay rows only
-- for a deal that is not a compact record. No table changes: the store's Go conversion of
-- version 13 (arena/internal/store/recordconvert.go) deletes the rows of the compact records
-- whose rows are what the record gives, and turns a compact record whose rows differ back
-- into text columns, a decision log and its rows, so that it reads back as it was stored.
-- SQLite reuses the space freed for new deals (VACUUM returns it to the file system).
SELECT 1;
