-- Tapp Arena schema, version 3 (PostgreSQL): the match format (R-SESSION: a session of rounds).
ALTER TABLE matches ADD COLUMN format TEXT NOT NULL DEFAULT 'deals';
ALTER TABLE matches ADD COLUMN rounds INTEGER NOT NULL DEFAULT 0;
