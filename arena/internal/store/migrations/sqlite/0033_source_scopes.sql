-- Tapp Arena schema, version 33: the deal-source rows (version 16) keyed by a number for their
-- league and rule set. Every row of rating_sources and rating_cells, and every entry of their
-- keys, spelled the rule set's text (about 150 bytes): a stored deal's source and cell took
-- four times the bytes of its record, and a batch of deals, whose sources are random keys,
-- rewrote that many more pages. rating_scopes numbers each league and rule set once; the rows
-- keep the number, in tables without a rowid (their key is the only way they are read).
CREATE TABLE rating_scopes (
	id        INTEGER PRIMARY KEY,
	league_id TEXT NOT NULL,
	rules     TEXT NOT NULL,
	UNIQUE (league_id, rules)
);
INSERT INTO rating_scopes (league_id, rules)
SELECT DISTINCT league_id, rules FROM rating_sources ORDER BY league_id, rules;

CREATE TABLE rating_sources_33 (
	scope  INTEGER NOT NULL,
	source TEXT NOT NULL,
	cells  INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (scope, source)
) WITHOUT ROWID;
INSERT INTO rating_sources_33 (scope, source, cells)
SELECT sc.id, s.source, s.cells FROM rating_sources s JOIN rating_scopes sc ON sc.league_id = s.league_id AND sc.rules = s.rules;
DROP TABLE rating_sources;
ALTER TABLE rating_sources_33 RENAME TO rating_sources;

CREATE TABLE rating_cells_33 (
	scope  INTEGER NOT NULL,
	source TEXT NOT NULL,
	bots   TEXT NOT NULL,
	deals  INTEGER NOT NULL DEFAULT 0,
	net0   INTEGER NOT NULL DEFAULT 0,
	net1   INTEGER NOT NULL DEFAULT 0,
	net2   INTEGER NOT NULL DEFAULT 0,
	net3   INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (scope, source, bots)
) WITHOUT ROWID;
INSERT INTO rating_cells_33 (scope, source, bots, deals, net0, net1, net2, net3)
SELECT sc.id, c.source, c.bots, c.deals, c.net0, c.net1, c.net2, c.net3
FROM rating_cells c JOIN rating_scopes sc ON sc.league_id = c.league_id AND sc.rules = c.rules;
DROP TABLE rating_cells;
ALTER TABLE rating_cells_33 RENAME TO rating_cells;
