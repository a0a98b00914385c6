-- Tapp Arena schema, version 16 (PostgreSQL): the leaderboard's sums by deal source. The ratings'
-- unit is the deal source (every table and seating that shares one deal's cards); a source's
-- cells (what each table composition played of it) are correlated, so besides each
-- composition's sums over its cells the store keeps the sums of the cells' products of every
-- pair of compositions that shared sources. All are integer sums, kept in the transaction that
-- completes a unit (arena/internal/store/sourcesums.go), so that the board reads rows in
-- proportion to compositions and their pairs, never to deals. The store's Go conversion of
-- version 16 builds them from every stored deal, league by league, with progress.

-- rating_tables' units are now cells (a composition's deal sources), and it keeps the
-- Bradley–Terry points of its cells: p_i = Σ 2π_i, pq_ij = Σ 2π_i·2π_j (π: a bot's points in
-- a cell, 1 per table-mate beaten, ½ per tie). Rebuilt by the conversion.
ALTER TABLE rating_tables ADD COLUMN p0 BIGINT NOT NULL DEFAULT 0;
ALTER TABLE rating_tables ADD COLUMN p1 BIGINT NOT NULL DEFAULT 0;
ALTER TABLE rating_tables ADD COLUMN p2 BIGINT NOT NULL DEFAULT 0;
ALTER TABLE rating_tables ADD COLUMN p3 BIGINT NOT NULL DEFAULT 0;
ALTER TABLE rating_tables ADD COLUMN pq00 BIGINT NOT NULL DEFAULT 0;
ALTER TABLE rating_tables ADD COLUMN pq01 BIGINT NOT NULL DEFAULT 0;
ALTER TABLE rating_tables ADD COLUMN pq02 BIGINT NOT NULL DEFAULT 0;
ALTER TABLE rating_tables ADD COLUMN pq03 BIGINT NOT NULL DEFAULT 0;
ALTER TABLE rating_tables ADD COLUMN pq11 BIGINT NOT NULL DEFAULT 0;
ALTER TABLE rating_tables ADD COLUMN pq12 BIGINT NOT NULL DEFAULT 0;
ALTER TABLE rating_tables ADD COLUMN pq13 BIGINT NOT NULL DEFAULT 0;
ALTER TABLE rating_tables ADD COLUMN pq22 BIGINT NOT NULL DEFAULT 0;
ALTER TABLE rating_tables ADD COLUMN pq23 BIGINT NOT NULL DEFAULT 0;
ALTER TABLE rating_tables ADD COLUMN pq33 BIGINT NOT NULL DEFAULT 0;

-- Per pair of compositions a < b of a league and rule set, over the deal sources both played
-- (rating.PairSums): sources, dd = Σ d_a·d_b, nd_x = Σ net_a,x·d_b, dn_y = Σ d_a·net_b,y,
-- nn_xy = Σ net_a,x·net_b,y, and the same of the doubled points: pc_x, cp_y, pp_xy.
CREATE TABLE rating_pairs (
	league_id TEXT NOT NULL,
	rules     TEXT NOT NULL,
	a         TEXT NOT NULL,
	b         TEXT NOT NULL,
	sources BIGINT NOT NULL DEFAULT 0,
	dd BIGINT NOT NULL DEFAULT 0,
	nd0 BIGINT NOT NULL DEFAULT 0,
	nd1 BIGINT NOT NULL DEFAULT 0,
	nd2 BIGINT NOT NULL DEFAULT 0,
	nd3 BIGINT NOT NULL DEFAULT 0,
	dn0 BIGINT NOT NULL DEFAULT 0,
	dn1 BIGINT NOT NULL DEFAULT 0,
	dn2 BIGINT NOT NULL DEFAULT 0,
	dn3 BIGINT NOT NULL DEFAULT 0,
	pc0 BIGINT NOT NULL DEFAULT 0,
	pc1 BIGINT NOT NULL DEFAULT 0,
	pc2 BIGINT NOT NULL DEFAULT 0,
	pc3 BIGINT NOT NULL DEFAULT 0,
	cp0 BIGINT NOT NULL DEFAULT 0,
	cp1 BIGINT NOT NULL DEFAULT 0,
	cp2 BIGINT NOT NULL DEFAULT 0,
	cp3 BIGINT NOT NULL DEFAULT 0,
	nn00 BIGINT NOT NULL DEFAULT 0,
	nn01 BIGINT NOT NULL DEFAULT 0,
	nn02 BIGINT NOT NULL DEFAULT 0,
	nn03 BIGINT NOT NULL DEFAULT 0,
	nn10 BIGINT NOT NULL DEFAULT 0,
	nn11 BIGINT NOT NULL DEFAULT 0,
	nn12 BIGINT NOT NULL DEFAULT 0,
	nn13 BIGINT NOT NULL DEFAULT 0,
	nn20 BIGINT NOT NULL DEFAULT 0,
	nn21 BIGINT NOT NULL DEFAULT 0,
	nn22 BIGINT NOT NULL DEFAULT 0,
	nn23 BIGINT NOT NULL DEFAULT 0,
	nn30 BIGINT NOT NULL DEFAULT 0,
	nn31 BIGINT NOT NULL DEFAULT 0,
	nn32 BIGINT NOT NULL DEFAULT 0,
	nn33 BIGINT NOT NULL DEFAULT 0,
	pp00 BIGINT NOT NULL DEFAULT 0,
	pp01 BIGINT NOT NULL DEFAULT 0,
	pp02 BIGINT NOT NULL DEFAULT 0,
	pp03 BIGINT NOT NULL DEFAULT 0,
	pp10 BIGINT NOT NULL DEFAULT 0,
	pp11 BIGINT NOT NULL DEFAULT 0,
	pp12 BIGINT NOT NULL DEFAULT 0,
	pp13 BIGINT NOT NULL DEFAULT 0,
	pp20 BIGINT NOT NULL DEFAULT 0,
	pp21 BIGINT NOT NULL DEFAULT 0,
	pp22 BIGINT NOT NULL DEFAULT 0,
	pp23 BIGINT NOT NULL DEFAULT 0,
	pp30 BIGINT NOT NULL DEFAULT 0,
	pp31 BIGINT NOT NULL DEFAULT 0,
	pp32 BIGINT NOT NULL DEFAULT 0,
	pp33 BIGINT NOT NULL DEFAULT 0,
	PRIMARY KEY (league_id, rules, a, b)
);

-- Every deal source (16 hex digits of its deal's SHA-256) with the count of its cells: its
-- row's lock orders the transactions that change its cells.
CREATE TABLE rating_sources (
	league_id TEXT NOT NULL,
	rules     TEXT NOT NULL,
	source    TEXT NOT NULL,
	cells     BIGINT NOT NULL DEFAULT 0,
	PRIMARY KEY (league_id, rules, source)
);

-- Every cell: what one composition played of one source (its complete units' deals and each
-- bot's net, index i a bot's position in the sorted composition).
CREATE TABLE rating_cells (
	league_id TEXT NOT NULL,
	rules     TEXT NOT NULL,
	source    TEXT NOT NULL,
	bots      TEXT NOT NULL,
	deals     BIGINT NOT NULL DEFAULT 0,
	net0      BIGINT NOT NULL DEFAULT 0,
	net1      BIGINT NOT NULL DEFAULT 0,
	net2      BIGINT NOT NULL DEFAULT 0,
	net3      BIGINT NOT NULL DEFAULT 0,
	PRIMARY KEY (league_id, rules, source, bots)
);

-- The deal sources of a league and rule set, and of each bot in it.
CREATE TABLE rating_source_counts (
	league_id TEXT NOT NULL,
	rules     TEXT NOT NULL,
	sources   BIGINT NOT NULL DEFAULT 0,
	PRIMARY KEY (league_id, rules)
);
CREATE TABLE rating_bot_sources (
	league_id TEXT NOT NULL,
	rules     TEXT NOT NULL,
	bot       TEXT NOT NULL,
	sources   BIGINT NOT NULL DEFAULT 0,
	PRIMARY KEY (league_id, rules, bot)
);

-- The rating over time (arena/internal/board/history.go): the headline of each league's board
-- (one rule set) with its 95% interval, at moments of the league's clock (the deal sources
-- its sums hold), taken as deals are stored and thinned to about 64 points, evenly spaced.
-- One row per point and bot, in the board's order (place).
CREATE TABLE rating_history (
	league_id   TEXT NOT NULL,
	rules       TEXT NOT NULL,
	clock       BIGINT NOT NULL,
	bot         TEXT NOT NULL,
	taken       TIMESTAMPTZ NOT NULL,
	sources     BIGINT NOT NULL,
	deals       BIGINT NOT NULL,
	place       INTEGER NOT NULL,
	rating      DOUBLE PRECISION NOT NULL,
	lo          DOUBLE PRECISION NOT NULL,
	hi          DOUBLE PRECISION NOT NULL,
	has_interval INTEGER NOT NULL,
	provisional  INTEGER NOT NULL,
	PRIMARY KEY (league_id, rules, clock, bot)
);
