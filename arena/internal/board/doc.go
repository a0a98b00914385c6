// Package board is the leaderboard a league organiser reads: it defines the sufficient
// statistics of stored results (per table composition, per bot role, per match), how one
// stored deal adds to them, and how the board — the headline skill rating with its
// cluster-robust interval, likelihood of superiority, Bradley–Terry and multiplayer Elo,
// roles, family splits and tainted matches — is derived from them.
//
// The store keeps the statistics up to date in the transaction that stores each deal
// (arena/internal/store/ratingstats.go), so that the board reads rows in proportion to the
// bots (their compositions, roles and Elo ratings) and the tainted matches, neither the
// matches nor the deals; [Recompute] derives the same statistics from raw results, and the
// two give identical boards. The statistics are integers, so the order in which deals are
// added never matters.
package board
