-- Tapp Arena schema, version 17 (SQLite): more of a league's running totals, kept as rounds
-- are scheduled and deals stored (arena/internal/store/aggregates.go), so that its progress
-- page reads a few rows however many deals the league has stored; and its pause switch.
--
-- leagues.matches counts the matches scheduled (league_matches), leagues.matches_finished
-- those with every deal stored; leagues.paused is set by `tapp league pause` (its workers
-- claim no new jobs until it is cleared). league_bots has a row per league and bot: the deals
-- it sat in, its decisions, strikes and fallbacks, and the deals in which the arena played
-- for it without asking (it had struck out or was gone).
-- The bots' rows of leagues stored before this version are filled in by the store's Go
-- conversion of version 17 (arena/internal/store/migrate.go).
ALTER TABLE leagues ADD COLUMN paused INTEGER NOT NULL DEFAULT 0;
ALTER TABLE leagues ADD COLUMN matches INTEGER NOT NULL DEFAULT 0;
ALTER TABLE leagues ADD COLUMN matches_finished INTEGER NOT NULL DEFAULT 0;

CREATE TABLE league_bots (
	league_id TEXT    NOT NULL,
	bot       TEXT    NOT NULL,
	deals     INTEGER NOT NULL DEFAULT 0,
	decisions INTEGER NOT NULL DEFAULT 0,
	strikes   INTEGER NOT NULL DEFAULT 0,
	fallbacks INTEGER NOT NULL DEFAULT 0,
	forfeited INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (league_id, bot)
);

UPDATE leagues SET matches = (SELECT count(*) FROM league_matches lm WHERE lm.league_id = leagues.id),
	matches_finished = (SELECT count(*) FROM league_matches lm JOIN matches m ON m.id = lm.match_id
		WHERE lm.league_id = leagues.id AND m.status = 'finished');
