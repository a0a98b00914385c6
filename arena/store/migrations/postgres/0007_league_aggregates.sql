-- Tapp Arena schema, version 7 (PostgreSQL): a league's running totals, kept in the transaction
-- that stores each deal, so that scheduling a ladder round, progress and `tapp league
-- status` read a few rows instead of every result of the league (arena/store/aggregates.go).
--
-- leagues.deals counts the league's stored deals. league_units holds the units (a match's
-- deal source: one deal, or a duplicate group) that have some of their deals stored but not
-- all: the deals stored and the net payoff of each bot by its position in matches.bots. When a
-- unit's last deal is stored its row goes, and its pairwise results (the bot with the higher
-- net beats the other, equal nets draw) are added to league_pairs, per round and pair of bots
-- (bot_a < bot_b byte-wise): what the ladder's Bradley–Terry fit needs.
-- The rows of leagues stored before this version are filled in by the store's Go conversion of
-- version 7 (arena/store/migrate.go).
ALTER TABLE leagues ADD COLUMN deals BIGINT NOT NULL DEFAULT 0;

CREATE TABLE league_units (
	match_id   TEXT    NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
	deal_group INTEGER NOT NULL,
	deals      BIGINT  NOT NULL,
	net0       BIGINT  NOT NULL DEFAULT 0,
	net1       BIGINT  NOT NULL DEFAULT 0,
	net2       BIGINT  NOT NULL DEFAULT 0,
	net3       BIGINT  NOT NULL DEFAULT 0,
	PRIMARY KEY (match_id, deal_group)
);

CREATE TABLE league_pairs (
	league_id TEXT    NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
	round     INTEGER NOT NULL,
	bot_a     TEXT    NOT NULL,
	bot_b     TEXT    NOT NULL,
	wins      BIGINT  NOT NULL,   -- of bot_a over bot_b
	draws     BIGINT  NOT NULL,
	losses    BIGINT  NOT NULL,
	PRIMARY KEY (league_id, round, bot_a, bot_b)
);

-- For counting the jobs of the rounds from a given one on (RoundCountsFrom).
CREATE INDEX league_jobs_round ON league_jobs (league_id, round);
