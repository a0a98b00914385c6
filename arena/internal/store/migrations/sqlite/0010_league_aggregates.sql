-- Tapp Arena schema, version 7 (SQLite): a league's running totals, kept in the transaction
-- that stores each deal, so that scheduling a ladder round, progress and `tapp league
-- status` read a few rows instead of every result of the league (arena/internal/store/aggregates.go).
--
-- leagues.deals counts the league's stored deals. league_units has a row per unit of the
-- league's schedule (a match's deal source: one deal, or a duplicate group) with deals stored:
-- how many, and the net payoff of each bot by its position in matches.bots — what the ladder's
-- pairwise results (the higher net of a complete unit beats the other) are computed from, a
-- round at a time.
-- The rows of leagues stored before this version are filled in by the store's Go conversion of
-- version 7 (arena/internal/store/migrate.go).
ALTER TABLE leagues ADD COLUMN deals INTEGER NOT NULL DEFAULT 0;

CREATE TABLE league_units (
	league_id  TEXT    NOT NULL,
	round      INTEGER NOT NULL,
	match_id   TEXT    NOT NULL,
	deal_group INTEGER NOT NULL,
	deals      INTEGER NOT NULL,
	net0       INTEGER NOT NULL DEFAULT 0,
	net1       INTEGER NOT NULL DEFAULT 0,
	net2       INTEGER NOT NULL DEFAULT 0,
	net3       INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (league_id, round, match_id, deal_group)
);

-- For counting the jobs of the rounds from a given one on (RoundCountsFrom).
CREATE INDEX league_jobs_round ON league_jobs (league_id, round);
