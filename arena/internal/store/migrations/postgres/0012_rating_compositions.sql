-- Tapp Arena schema, version 12 (PostgreSQL): what `tapp ratings` read per match, kept per
-- table composition, so that the board reads rows in proportion to the bots (their
-- compositions, roles and Elo ledgers) and the tainted matches, never to every match
-- (arena/internal/store/ratingstats.go).

-- Per league, rule set and composition: its matches with stored deals, their deals, the
-- matches played in duplicate, and the duplicate groups not yet stored under every seating
-- (rating_open_groups' rows of its matches). Kept in the transaction that stores each deal,
-- with additive upserts like rating_tables.
CREATE TABLE rating_compositions (
	league_id   TEXT   NOT NULL,
	rules       TEXT   NOT NULL,
	bots        TEXT   NOT NULL,
	matches     BIGINT NOT NULL DEFAULT 0,
	deals       BIGINT NOT NULL DEFAULT 0,
	duplicate   BIGINT NOT NULL DEFAULT 0,
	open_groups BIGINT NOT NULL DEFAULT 0,
	PRIMARY KEY (league_id, rules, bots)
);
INSERT INTO rating_compositions (league_id, rules, bots, matches, deals, duplicate, open_groups)
SELECT rm.league_id, rm.rules, rm.bots, count(*), sum(rm.deals), sum(CASE WHEN rm.duplicate THEN 1 ELSE 0 END),
	sum((SELECT count(*) FROM rating_open_groups g WHERE g.match_id = rm.match_id))
FROM rating_matches rm GROUP BY rm.league_id, rm.rules, rm.bots;

-- The tainted matches (board.MatchSums.Tainted) by their two causes, each through a partial
-- index that holds only them, so that the board reads nothing of the clean ones: more than 1%
-- fallbacks (tainted_by_fallbacks, kept by the upsert that adds a deal's decisions and
-- fallbacks: a column of its own, not an expression, so that PostgreSQL's statistics know how
-- few such matches there are), and a forfeit.
ALTER TABLE rating_matches ADD COLUMN tainted_by_fallbacks INTEGER NOT NULL DEFAULT 0;
UPDATE rating_matches SET tainted_by_fallbacks = 1 WHERE fallbacks * 100 > decisions;
CREATE INDEX rating_matches_fallbacks ON rating_matches (league_id, rules) WHERE tainted_by_fallbacks = 1;
CREATE INDEX matches_forfeited ON matches (league_id) WHERE forfeited NOT IN ('', '[]');
