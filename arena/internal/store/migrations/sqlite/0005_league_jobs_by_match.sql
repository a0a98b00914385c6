-- Tapp Arena schema, version 5 (SQLite): league jobs found by their match.
-- Completing a league job asks whether its match has a job left that is not done; without
-- this index that question read every job of the league, for every job completed.
CREATE INDEX league_jobs_match ON league_jobs (match_id, state);
