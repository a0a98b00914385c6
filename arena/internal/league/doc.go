// Package league runs leagues: a schedule of matches among bots (round robin, gauntlet, a
// ladder with matchmaking, or the paired matches of an SPRT), played as units of work from a
// job queue, so that a league survives any interruption and several arena hosts can share
// one. The Runner is this package; the rest of a league lives in its subpackages:
//
//   - leaguefile: the league file (YAML), parsed and checked.
//   - plan: the schedule (rounds, tables, deals, jobs, the ladder's matchmaking).
//   - leaguestore: what a league needs from storage (the job queue and the running totals);
//     arena/internal/store/memstore keeps it in memory, arena/internal/store in SQLite or
//     PostgreSQL, and arena/internal/store/storetest is the conformance suite all of them pass.
//   - liveness: worker names and the platform's check that a worker's process is gone.
//   - sprt: the sequential test of a candidate against a baseline, played as a league.
//
// The leaderboard of a league is arena/internal/board's, from the same stored results.
package league
