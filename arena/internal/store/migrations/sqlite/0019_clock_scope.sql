-- Tapp Arena schema, version 19: whose bank and strikes a match's clock is — a game's (each
-- deal's, or the session's), the default from now on, or the whole match's, as every match
-- stored before this version was played — and how the arena's admission control ran the
-- match (JSON of domain.Admission; '' before this version, or not run yet).
ALTER TABLE matches ADD COLUMN clock_scope TEXT NOT NULL DEFAULT 'game';
UPDATE matches SET clock_scope = 'match';
ALTER TABLE matches ADD COLUMN admission TEXT NOT NULL DEFAULT '';
