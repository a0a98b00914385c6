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

-- The tainted matches (board.MatchSums.Tainted) by their two causes, each a partial index
-- that holds only them: more than 1% fallbacks, and a forfeit. The board reads them through
-- these indexes, so a clean match costs it nothing.
CREATE INDEX rating_matches_fallbacks ON rating_matches (league_id, rules) WHERE decisions < fallbacks * 100;
CREATE INDEX matches_forfeited ON matches (league_id) WHERE forfeited NOT IN ('', '[]');
