// Package rating derives the statistics a league organiser reads in the morning from raw
// per-deal and per-match results: single and multiplayer Elo, Elo difference with error
// margin and likelihood of superiority from win/draw/loss counts, a normalized-Elo sequential
// probability ratio test (SPRT), Bradley–Terry maximum-likelihood ratings with confidence
// intervals and a likelihood-of-superiority matrix, and per-bot cents-per-deal means with 95%
// intervals.
//
// The package is pure: no I/O, no logging, no global state and no randomness. Every function
// is deterministic for a given input; where input order could matter (the multiplayer-Elo
// [Ledger]) the order is the caller's and is documented.
//
// Each exported function documents the formula it implements and where that formula comes
// from. Elo differences use the logistic scale: a rating gap of Δ Elo means an expected score
// of 1/(1+10^(−Δ/400)); one logit (natural-log odds) is 400/ln 10 ≈ 173.72 Elo ([EloPerLogit]).
package rating
