-- Tapp Arena schema, version 34: the deals a league has planned, kept on its row.
-- A league's progress (the dashboard) showed the deals of its scheduled jobs by summing every
-- job of the league, a read that grew with the league (20,000 rows at 20,000 matches).
-- planned_deals keeps that sum, added to in the transaction that schedules the jobs (a job
-- scheduled again by another host adds nothing), so that the progress reads one row. The sum
-- of the jobs stored before this version is taken once, here.
ALTER TABLE leagues ADD COLUMN planned_deals BIGINT NOT NULL DEFAULT 0;
UPDATE leagues SET planned_deals = (SELECT coalesce(sum(deals), 0) FROM league_jobs WHERE league_jobs.league_id = leagues.id);
