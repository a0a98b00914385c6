-- Tapp Arena schema, version 2 (SQLite): leagues and their job queue.
-- A league's matches are ordinary rows of matches (league_id set); league_matches places
-- them in the league's schedule, and league_jobs is the queue of the units of work that play
-- them (see arena/internal/league). A job is leased to one worker at a time (owner, lease_until,
-- renewed by heartbeats); an expired lease is taken over by the next claim; a job is marked
-- done in the same transaction that stores its last deal.

CREATE TABLE leagues (
	id      TEXT    NOT NULL PRIMARY KEY,
	plan    TEXT    NOT NULL,   -- canonical JSON of what decides the schedule and results
	status  TEXT    NOT NULL,   -- running, finished, stopped
	created INTEGER NOT NULL,
	updated INTEGER NOT NULL
);

CREATE TABLE league_matches (
	league_id TEXT    NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
	seq       INTEGER NOT NULL,   -- position in the league's schedule, from 0
	round     INTEGER NOT NULL,
	match_id  TEXT    NOT NULL UNIQUE REFERENCES matches (id) ON DELETE CASCADE,
	PRIMARY KEY (league_id, seq)
);

CREATE TABLE league_jobs (
	id          INTEGER NOT NULL PRIMARY KEY,
	league_id   TEXT    NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
	round       INTEGER NOT NULL,
	match_id    TEXT    NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
	first_group INTEGER NOT NULL,   -- deal sources first_group .. first_group+n_groups-1
	n_groups    INTEGER NOT NULL,
	deals       INTEGER NOT NULL,   -- deals the job plays; done when that many are stored
	state       TEXT    NOT NULL,   -- available, running, done, failed
	owner       TEXT    NOT NULL DEFAULT '',
	lease_until INTEGER,            -- NULL unless running
	attempts    INTEGER NOT NULL DEFAULT 0,
	last_error  TEXT    NOT NULL DEFAULT '',
	created     INTEGER NOT NULL,
	finished    INTEGER,
	UNIQUE (match_id, first_group)
);
CREATE INDEX league_jobs_claim ON league_jobs (league_id, state, id);

-- For counting the stored deals of a job's groups.
CREATE INDEX deals_group ON deals (match_id, deal_group);
