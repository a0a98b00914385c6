// Package app is the arena's application layer: the use cases every front end calls, so that
// the tapp command (arena/internal/cli) is flags and printing, and the dashboard
// (arena/internal/web) shows the same leaderboard the command prints. A use case takes a
// store through an interface, starts what it needs (an arena of arena/internal/host, the
// league runner, a re-ask arena of arena/internal/reask), returns its result as values and
// its failures as errors; it never prints, and reports progress through callbacks.
//
// Files: match.go (play a match among built-in bots), results.go (a match's result per
// bot), league.go (run a league or an SPRT), leaderboard.go (the leaderboard with its
// families, and the stored analyses beside it), source.go (recorded deals from a store or an
// export), analyze.go (double-dummy analysis), reask.go (re-ask recorded decisions of a bot:
// replay ask and replay diff).
package app
