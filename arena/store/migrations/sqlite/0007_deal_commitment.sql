-- Tapp Arena schema, version 7 (assigned number 0009: renumber at merge) (SQLite): every match commits to its deals before the first
-- one (the hex SHA-256 of match.CommitmentText) with a secret nonce, revealed with the seed
-- once the match is over. Matches stored before read both as empty.
ALTER TABLE matches ADD COLUMN commitment TEXT NOT NULL DEFAULT '';
ALTER TABLE matches ADD COLUMN nonce TEXT NOT NULL DEFAULT '';
