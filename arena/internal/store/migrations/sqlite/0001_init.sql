-- Tapp Arena schema, version 1 (SQLite).
-- Times are INTEGER microseconds since the Unix epoch (UTC); durations are INTEGER
-- microseconds (*_us); booleans are INTEGER 0/1. Engine values are stored in their text
-- notation: rule sets canonical, deals in deal notation, moves as "seat:action" lines,
-- options and outcomes as JSON. The PostgreSQL schema has the same tables and columns.

CREATE TABLE bots (
	id         TEXT    NOT NULL PRIMARY KEY,
	name       TEXT    NOT NULL UNIQUE,
	token_hash BLOB    UNIQUE,            -- NULL for a bot without a token
	created    INTEGER NOT NULL
);

CREATE TABLE matches (
	id              TEXT    NOT NULL PRIMARY KEY,
	league_id       TEXT    NOT NULL DEFAULT '',  -- '' for a stand-alone match
	rules           TEXT    NOT NULL,             -- canonical rule-set text
	bots            TEXT    NOT NULL,             -- JSON array of bot names in table order
	deals           INTEGER NOT NULL,
	seed            TEXT    NOT NULL,             -- uint64 in decimal
	duplicate       INTEGER NOT NULL,
	deals_text      TEXT    NOT NULL DEFAULT '',
	per_decision_us INTEGER NOT NULL,
	overage_us      INTEGER NOT NULL,
	max_strikes     INTEGER NOT NULL,
	status          TEXT    NOT NULL,
	started         INTEGER NOT NULL,
	finished        INTEGER,                      -- NULL while running
	forfeited       TEXT    NOT NULL DEFAULT '[]' -- JSON array of bot names
);
CREATE INDEX matches_started ON matches (started);
CREATE INDEX matches_league ON matches (league_id, started);
CREATE INDEX matches_rules ON matches (rules, started);

-- One row per bot and table position, for "matches this bot played in".
CREATE TABLE match_bots (
	match_id TEXT    NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
	position INTEGER NOT NULL,
	bot      TEXT    NOT NULL,
	PRIMARY KEY (match_id, position)
);
CREATE INDEX match_bots_bot ON match_bots (bot, match_id);

CREATE TABLE deals (
	match_id    TEXT    NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
	number      INTEGER NOT NULL,   -- in play order, from 0
	deal_group  INTEGER NOT NULL,   -- deal source; the duplicate group in duplicate mode
	seating     TEXT    NOT NULL,   -- JSON array: bot name by seat
	deal        TEXT    NOT NULL,   -- engine deal notation
	options     TEXT    NOT NULL,   -- JSON
	moves       TEXT    NOT NULL,   -- one "seat:action" per line
	outcome     TEXT    NOT NULL,   -- JSON
	started     INTEGER NOT NULL,
	duration_us INTEGER NOT NULL,
	PRIMARY KEY (match_id, number)
);

CREATE TABLE decisions (
	match_id    TEXT    NOT NULL,
	deal_number INTEGER NOT NULL,
	idx         INTEGER NOT NULL,   -- position among the deal's decisions, from 0
	seat        INTEGER NOT NULL,
	bot         TEXT    NOT NULL,
	decision    TEXT    NOT NULL,
	request_id  TEXT    NOT NULL,
	sent        TEXT    NOT NULL,   -- the request as sent, protobuf JSON
	attempts    TEXT    NOT NULL,   -- JSON array of {text, after_us, rejected}
	action      TEXT    NOT NULL,   -- action notation
	latency_us  INTEGER NOT NULL,
	strike      INTEGER NOT NULL,
	fallback    INTEGER NOT NULL,
	PRIMARY KEY (match_id, deal_number, idx),
	FOREIGN KEY (match_id, deal_number) REFERENCES deals (match_id, number) ON DELETE CASCADE
);
CREATE INDEX decisions_bot ON decisions (bot);

-- Raw results, one row per deal and seat; ratings are derived from these. id gives the
-- order in which results were stored.
CREATE TABLE results (
	id          INTEGER NOT NULL PRIMARY KEY,
	match_id    TEXT    NOT NULL,
	deal_number INTEGER NOT NULL,
	league_id   TEXT    NOT NULL DEFAULT '',  -- copied from the match, for league queries
	seat        INTEGER NOT NULL,
	bot         TEXT    NOT NULL,
	payoff      INTEGER NOT NULL,
	points      INTEGER NOT NULL,
	tricks      INTEGER NOT NULL,
	declarer    INTEGER NOT NULL,
	UNIQUE (match_id, deal_number, seat),
	FOREIGN KEY (match_id, deal_number) REFERENCES deals (match_id, number) ON DELETE CASCADE
);
CREATE INDEX results_bot ON results (bot, id);
CREATE INDEX results_league ON results (league_id, id);
