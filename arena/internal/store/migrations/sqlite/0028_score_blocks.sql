-- Tapp Arena schema, version 28 (SQLite): a match's running score kept in blocks of deal
-- numbers, so that the score before any deal (the replay's "score before", the live view's
-- net) reads a few rows and at most a block's deals, not every deal of the match.
--
-- score_blocks has a row per match and block of scoreBlock (64) deal numbers: the deals of the
-- block stored and each table position's net payoff over them (by position in the match's
-- bots). Written by the transaction that stores the deals (arena/internal/store/scores.go);
-- the store's Go conversion of version 28 fills it from the deals stored before.
CREATE TABLE IF NOT EXISTS score_blocks (
	match_id TEXT    NOT NULL,
	block    INTEGER NOT NULL, -- deal number / 64
	deals    INTEGER NOT NULL,
	net0     INTEGER NOT NULL,
	net1     INTEGER NOT NULL,
	net2     INTEGER NOT NULL,
	net3     INTEGER NOT NULL,
	PRIMARY KEY (match_id, block)
) WITHOUT ROWID;
