-- Tapp Arena schema, version 18 (PostgreSQL): every bot's multiplayer Elo after each of its rated matches,
-- per ledger (rating_elo_log), so that a rating history is read in proportion to the points
-- it shows (a bot's n-th match is one key), not replayed from every match of the ledger.
-- Written by the transaction that rates a finished match (arena/internal/store/ratingstats.go);
-- the store's Go conversion of version 18 (elohistory.go) fills it from the ledgers' logs (IF NOT
-- EXISTS: the store's migration tests rebuild a database from an older version over its tables).
CREATE TABLE IF NOT EXISTS rating_elo_points (
	league_id TEXT NOT NULL,
	rules     TEXT NOT NULL,
	tainted   INTEGER NOT NULL,
	bot       TEXT NOT NULL,
	n         INTEGER NOT NULL, -- the bot's count of rated matches after this one, from 1
	match_id  TEXT NOT NULL,
	finished  TIMESTAMPTZ,             -- when the match finished (as matches.finished)
	elo       DOUBLE PRECISION NOT NULL,
	PRIMARY KEY (league_id, rules, tainted, bot, n)
);
