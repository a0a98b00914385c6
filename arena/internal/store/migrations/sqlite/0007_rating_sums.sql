-- Tapp Arena schema, version 10 (SQLite): the leaderboard's sufficient statistics.
-- Kept up to date in the transaction that stores each deal
-- (arena/internal/store/ratingstats.go), so that `tapp ratings` reads rows in proportion to the
-- bots and matches, not the deals. Every value is an integer sum (see
-- arena/internal/rating.TableSums and arena/internal/board), so the sums kept here equal a
-- recomputation from raw results exactly. A composition (bots) is the sorted bot
-- names joined by commas; index i below is a bot's position in it.

-- Per league, rule set and composition: its complete units (duplicate groups, or deals).
-- units, deals = Σd, deals_sq = Σd², net_i = Σnet_i, dnet_i = Σd·net_i, q_ij = Σnet_i·net_j,
-- w_ij / t_ij = units in which i's net beat / tied j's.
CREATE TABLE rating_tables (
	league_id TEXT NOT NULL,
	rules     TEXT NOT NULL,
	bots      TEXT NOT NULL,
	units     INTEGER NOT NULL DEFAULT 0,
	deals     INTEGER NOT NULL DEFAULT 0,
	deals_sq  INTEGER NOT NULL DEFAULT 0,
	net0 INTEGER NOT NULL DEFAULT 0,
	net1 INTEGER NOT NULL DEFAULT 0,
	net2 INTEGER NOT NULL DEFAULT 0,
	net3 INTEGER NOT NULL DEFAULT 0,
	dnet0 INTEGER NOT NULL DEFAULT 0,
	dnet1 INTEGER NOT NULL DEFAULT 0,
	dnet2 INTEGER NOT NULL DEFAULT 0,
	dnet3 INTEGER NOT NULL DEFAULT 0,
	q00 INTEGER NOT NULL DEFAULT 0,
	q01 INTEGER NOT NULL DEFAULT 0,
	q02 INTEGER NOT NULL DEFAULT 0,
	q03 INTEGER NOT NULL DEFAULT 0,
	q11 INTEGER NOT NULL DEFAULT 0,
	q12 INTEGER NOT NULL DEFAULT 0,
	q13 INTEGER NOT NULL DEFAULT 0,
	q22 INTEGER NOT NULL DEFAULT 0,
	q23 INTEGER NOT NULL DEFAULT 0,
	q33 INTEGER NOT NULL DEFAULT 0,
	w01 INTEGER NOT NULL DEFAULT 0,
	w02 INTEGER NOT NULL DEFAULT 0,
	w03 INTEGER NOT NULL DEFAULT 0,
	w12 INTEGER NOT NULL DEFAULT 0,
	w13 INTEGER NOT NULL DEFAULT 0,
	w23 INTEGER NOT NULL DEFAULT 0,
	t01 INTEGER NOT NULL DEFAULT 0,
	t02 INTEGER NOT NULL DEFAULT 0,
	t03 INTEGER NOT NULL DEFAULT 0,
	t12 INTEGER NOT NULL DEFAULT 0,
	t13 INTEGER NOT NULL DEFAULT 0,
	t23 INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (league_id, rules, bots)
);

-- Per composition, bot and role (declarer, defender against bot j, contract, seat...): deals,
-- the payoff summed and squared, contracts made.
CREATE TABLE rating_roles (
	league_id TEXT NOT NULL,
	rules     TEXT NOT NULL,
	bots      TEXT NOT NULL,
	bot       INTEGER NOT NULL,
	role      TEXT NOT NULL,
	deals     INTEGER NOT NULL DEFAULT 0,
	total     INTEGER NOT NULL DEFAULT 0,
	total_sq  INTEGER NOT NULL DEFAULT 0,
	made      INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (league_id, rules, bots, bot, role)
);

-- Per match: deals, decisions and fallbacks (tainting), and each bot's net (multiplayer Elo);
-- rated = 1 once the finished match is in the Elo ledgers.
CREATE TABLE rating_matches (
	match_id  TEXT NOT NULL PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
	league_id TEXT NOT NULL,
	rules     TEXT NOT NULL,
	bots      TEXT NOT NULL,
	duplicate INTEGER NOT NULL DEFAULT 0,
	rated     INTEGER NOT NULL DEFAULT 0,
	deals     INTEGER NOT NULL DEFAULT 0,
	decisions INTEGER NOT NULL DEFAULT 0,
	fallbacks INTEGER NOT NULL DEFAULT 0,
	net0 INTEGER NOT NULL DEFAULT 0,
	net1 INTEGER NOT NULL DEFAULT 0,
	net2 INTEGER NOT NULL DEFAULT 0,
	net3 INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX rating_matches_league ON rating_matches (league_id);

-- Duplicate groups not yet stored under every seating: folded into rating_tables (and
-- deleted) by the transaction that stores the group's last deal.
CREATE TABLE rating_open_groups (
	match_id TEXT NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
	grp      INTEGER NOT NULL,
	deals    INTEGER NOT NULL DEFAULT 0,
	net0 INTEGER NOT NULL DEFAULT 0,
	net1 INTEGER NOT NULL DEFAULT 0,
	net2 INTEGER NOT NULL DEFAULT 0,
	net3 INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (match_id, grp)
);

-- The running multiplayer Elo, one ledger per (league or '*', rule set or '*', tainted
-- matches counted or not), updated in the transaction that finishes a match: each bot's
-- rating and matches, the ledger's count of rated matches (head, whose row lock orders
-- concurrent finishes), and the order it rated them in (log).
CREATE TABLE rating_elo (
	league_id TEXT NOT NULL,
	rules     TEXT NOT NULL,
	tainted   INTEGER NOT NULL,
	bot       TEXT NOT NULL,
	elo       REAL NOT NULL,
	matches   INTEGER NOT NULL,
	PRIMARY KEY (league_id, rules, tainted, bot)
);
CREATE TABLE rating_elo_head (
	league_id TEXT NOT NULL,
	rules     TEXT NOT NULL,
	tainted   INTEGER NOT NULL,
	seq       INTEGER NOT NULL,
	PRIMARY KEY (league_id, rules, tainted)
);
CREATE TABLE rating_elo_log (
	league_id TEXT NOT NULL,
	rules     TEXT NOT NULL,
	tainted   INTEGER NOT NULL,
	seq       INTEGER NOT NULL,
	match_id  TEXT NOT NULL,
	PRIMARY KEY (league_id, rules, tainted, seq)
);

-- stale = 1: the database held deals before this version; the store rebuilds the sums from
-- the raw results the first time it opens it (arena/internal/store/ratingstats.go).
CREATE TABLE rating_state (
	id    INTEGER NOT NULL PRIMARY KEY,
	stale INTEGER NOT NULL
);
INSERT INTO rating_state (id, stale) SELECT 1, CASE WHEN EXISTS (SELECT 1 FROM deals) THEN 1 ELSE 0 END;
