-- Tapp Arena schema, version 9 (PostgreSQL): every match commits to its deals before the first
-- one (the hex SHA-256 of match.CommitmentText) with a secret nonce, revealed with the seed
-- once the match is over. Matches stored before read both as empty.
ALTER TABLE matches ADD COLUMN commitment TEXT NOT NULL DEFAULT '';
ALTER TABLE matches ADD COLUMN nonce TEXT NOT NULL DEFAULT '';
-- The decisions of the match's stored deals and the fallbacks among them, as of its last
-- update: results with more than 1% fallbacks are flagged (domain.TaintedShare).
ALTER TABLE matches ADD COLUMN decisions INTEGER NOT NULL DEFAULT 0;
ALTER TABLE matches ADD COLUMN fallbacks INTEGER NOT NULL DEFAULT 0;
