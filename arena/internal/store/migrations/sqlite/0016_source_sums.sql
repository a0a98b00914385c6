-- Tapp Arena schema, version 16 (SQLite): the leaderboard's sums by deal source. The ratings'
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
ALTER TABLE rating_tables ADD COLUMN p0 INTEGER NOT NULL DEFAULT 0;
ALTER TABLE rating_tables ADD COLUMN p1 INTEGER NOT NULL DEFAULT 0;
ALTER TABLE rating_tables ADD COLUMN p2 INTEGER NOT NULL DEFAULT 0;
ALTER TABLE rating_tables ADD COLUMN p3 INTEGER NOT NULL DEFAULT 0;
ALTER TABLE rating_tables ADD COLUMN pq00 INTEGER NOT NULL DEFAULT 0;
ALTER TABLE rating_tables ADD COLUMN pq01 INTEGER NOT NULL DEFAULT 0;
ALTER TABLE rating_tables ADD COLUMN pq02 INTEGER NOT NULL DEFAULT 0;
ALTER TABLE rating_tables ADD COLUMN pq03 INTEGER NOT NULL DEFAULT 0;
ALTER TABLE rating_tables ADD COLUMN pq11 INTEGER NOT NULL DEFAULT 0;
ALTER TABLE rating_tables ADD COLUMN pq12 INTEGER NOT NULL DEFAULT 0;
ALTER TABLE rating_tables ADD COLUMN pq13 INTEGER NOT NULL DEFAULT 0;
ALTER TABLE rating_tables ADD COLUMN pq22 INTEGER NOT NULL DEFAULT 0;
ALTER TABLE rating_tables ADD COLUMN pq23 INTEGER NOT NULL DEFAULT 0;
ALTER TABLE rating_tables ADD COLUMN pq33 INTEGER NOT NULL DEFAULT 0;

-- Per pair of compositions a < b of a league and rule set, over the deal sources both played
-- (rating.PairSums): sources, dd = Σ d_a·d_b, nd_x = Σ net_a,x·d_b, dn_y = Σ d_a·net_b,y,
-- nn_xy = Σ net_a,x·net_b,y, and the same of the doubled points: pc_x, cp_y, pp_xy.
CREATE TABLE rating_pairs (
	league_id TEXT NOT NULL,
	rules     TEXT NOT NULL,
	a         TEXT NOT NULL,
	b         TEXT NOT NULL,
	sources INTEGER NOT NULL DEFAULT 0,
	dd INTEGER NOT NULL DEFAULT 0,
	nd0 INTEGER NOT NULL DEFAULT 0,
	nd1 INTEGER NOT NULL DEFAULT 0,
	nd2 INTEGER NOT NULL DEFAULT 0,
	nd3 INTEGER NOT NULL DEFAULT 0,
	dn0 INTEGER NOT NULL DEFAULT 0,
	dn1 INTEGER NOT NULL DEFAULT 0,
	dn2 INTEGER NOT NULL DEFAULT 0,
	dn3 INTEGER NOT NULL DEFAULT 0,
	pc0 INTEGER NOT NULL DEFAULT 0,
	pc1 INTEGER NOT NULL DEFAULT 0,
	pc2 INTEGER NOT NULL DEFAULT 0,
	pc3 INTEGER NOT NULL DEFAULT 0,
	cp0 INTEGER NOT NULL DEFAULT 0,
	cp1 INTEGER NOT NULL DEFAULT 0,
	cp2 INTEGER NOT NULL DEFAULT 0,
	cp3 INTEGER NOT NULL DEFAULT 0,
	nn00 INTEGER NOT NULL DEFAULT 0,
	nn01 INTEGER NOT NULL DEFAULT 0,
	nn02 INTEGER NOT NULL DEFAULT 0,
	nn03 INTEGER NOT NULL DEFAULT 0,
	nn10 INTEGER NOT NULL DEFAULT 0,
	nn11 INTEGER NOT NULL DEFAULT 0,
	nn12 INTEGER NOT NULL DEFAULT 0,
	nn13 INTEGER NOT NULL DEFAULT 0,
	nn20 INTEGER NOT NULL DEFAULT 0,
	nn21 INTEGER NOT NULL DEFAULT 0,
	nn22 INTEGER NOT NULL DEFAULT 0,
	nn23 INTEGER NOT NULL DEFAULT 0,
	nn30 INTEGER NOT NULL DEFAULT 0,
	nn31 INTEGER NOT NULL DEFAULT 0,
	nn32 INTEGER NOT NULL DEFAULT 0,
	nn33 INTEGER NOT NULL DEFAULT 0,
	pp00 INTEGER NOT NULL DEFAULT 0,
	pp01 INTEGER NOT NULL DEFAULT 0,
	pp02 INTEGER NOT NULL DEFAULT 0,
	pp03 INTEGER NOT NULL DEFAULT 0,
	pp10 INTEGER NOT NULL DEFAULT 0,
	pp11 INTEGER NOT NULL DEFAULT 0,
	pp12 INTEGER NOT NULL DEFAULT 0,
	pp13 INTEGER NOT NULL DEFAULT 0,
	pp20 INTEGER NOT NULL DEFAULT 0,
	pp21 INTEGER NOT NULL DEFAULT 0,
	pp22 INTEGER NOT NULL DEFAULT 0,
	pp23 INTEGER NOT NULL DEFAULT 0,
	pp30 INTEGER NOT NULL DEFAULT 0,
	pp31 INTEGER NOT NULL DEFAULT 0,
	pp32 INTEGER NOT NULL DEFAULT 0,
	pp33 INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (league_id, rules, a, b)
);

-- Every deal source (16 hex digits of its deal's SHA-256) with the count of its cells: its
-- row's lock orders the transactions that change its cells.
CREATE TABLE rating_sources (
	league_id TEXT NOT NULL,
	rules     TEXT NOT NULL,
	source    TEXT NOT NULL,
	cells     INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (league_id, rules, source)
);

-- Every cell: what one composition played of one source (its complete units' deals and each
-- bot's net, index i a bot's position in the sorted composition).
CREATE TABLE rating_cells (
	league_id TEXT NOT NULL,
	rules     TEXT NOT NULL,
	source    TEXT NOT NULL,
	bots      TEXT NOT NULL,
	deals     INTEGER NOT NULL DEFAULT 0,
	net0      INTEGER NOT NULL DEFAULT 0,
	net1      INTEGER NOT NULL DEFAULT 0,
	net2      INTEGER NOT NULL DEFAULT 0,
	net3      INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (league_id, rules, source, bots)
);

-- The deal sources of a league and rule set, and of each bot in it.
CREATE TABLE rating_source_counts (
	league_id TEXT NOT NULL,
	rules     TEXT NOT NULL,
	sources   INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (league_id, rules)
);
CREATE TABLE rating_bot_sources (
	league_id TEXT NOT NULL,
	rules     TEXT NOT NULL,
	bot       TEXT NOT NULL,
	sources   INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (league_id, rules, bot)
);

-- The rating over time (arena/internal/board/history.go): the headline of each league's board
-- (one rule set) with its 95% interval, at moments of the league's clock (the deal sources
-- its sums hold), taken as deals are stored and thinned to about 64 points, evenly spaced.
-- One row per point and bot, in the board's order (place).
CREATE TABLE rating_history (
	league_id   TEXT NOT NULL,
	rules       TEXT NOT NULL,
	clock       INTEGER NOT NULL,
	bot         TEXT NOT NULL,
	taken       INTEGER NOT NULL, -- microseconds since the epoch
	sources     INTEGER NOT NULL,
	deals       INTEGER NOT NULL,
	place       INTEGER NOT NULL,
	rating      REAL NOT NULL,
	lo          REAL NOT NULL,
	hi          REAL NOT NULL,
	has_interval INTEGER NOT NULL,
	provisional  INTEGER NOT NULL,
	PRIMARY KEY (league_id, rules, clock, bot)
);
