-- Tapp Arena schema, version 14: hosted bots. A submission is one version of a registered
-- bot, source the arena builds and runs sandboxed; it plays as the bot "NAME@VERSION". The
-- source archive is kept once per digest (two versions with the same source share it).
-- IF NOT EXISTS: a database rebuilt from an older version (the store's migration tests) may have them.
CREATE TABLE IF NOT EXISTS submission_sources (
	digest TEXT  NOT NULL PRIMARY KEY,   -- sha256 of data, hex
	data   BYTEA NOT NULL                -- gzipped tar of the project folder
);

CREATE TABLE IF NOT EXISTS submissions (
	bot       TEXT        NOT NULL REFERENCES bots (name),
	version   INTEGER     NOT NULL,            -- 1, 2, ... per bot
	lang      TEXT        NOT NULL,            -- go | python
	entry     TEXT        NOT NULL DEFAULT '',
	digest    TEXT        NOT NULL REFERENCES submission_sources (digest),
	size      BIGINT      NOT NULL,
	format    INTEGER     NOT NULL,            -- layout version of the source archive
	status    TEXT        NOT NULL,            -- queued | building | ready | failed
	build_log TEXT        NOT NULL DEFAULT '',
	created   TIMESTAMPTZ NOT NULL,
	built     TIMESTAMPTZ,                     -- NULL until a build ended
	gauntlet  TEXT        NOT NULL DEFAULT '', -- verdict of its SPRT gauntlet
	PRIMARY KEY (bot, version)
);
CREATE INDEX IF NOT EXISTS submissions_status ON submissions (status);
