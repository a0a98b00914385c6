// Package sleuth is the built-in bot "sleuth", meant to be Tapp Arena's strongest:
// determinized search over the double-dummy solver (package bots/doubledummy), like kibitz
// (package bots/search; what the two share is package bots/internal/pimc), with three things
// kibitz lacks:
//   - inference: the imagined deals are weighted by how likely every bid, pass and card the
//     other seats chose is under a model of them (worlds.go, model.go), so that a pass, a
//     contract named or a card ducked tells where the cards lie;
//   - bidding by evaluation: every plan for the rest of the bidding is played on every world
//     with the others bidding as the model says, and the deal it leads to valued — the bot's
//     contract, an opponent's, or the Ramsch (bid.go, value.go), the double-dummy verdicts
//     turned into chances by a calibration fitted to played deals; "play" in modern round one
//     is valued as naming in round two what is best for what the bot will have heard by then
//     (adapt.go);
//   - time management: work is counted in solver nodes, budgeted by what a decision puts at
//     stake and stopped as soon as the choice is settled (effort.go), so the same seed gives
//     the same decisions and the time goes where decisions matter; the clock (bots.Clock: the
//     deadline and the overage bank) only stops work that does not fit, and a bid or a
//     declaration cut short may run on into a share of the bank.
//
// Cards are played as kibitz plays them, by the solver over the worlds (play.go) — but where
// the seats still to play to the trick are, by the evidence, rule-of-thumb players, their
// replies come from the model and the solver takes over at the next trick; a Ramsch card, and
// a defender's card in a modern point contract at a table of three, are chosen by play-outs
// with the model's policy at every seat and the real scoring (rollout.go), because the solver
// assumes a declarer who sees every card — the defender's only in the worlds where both other
// seats are, by the evidence, rule-of-thumb players, the solver's in the others, because a
// searching declarer makes none of the rule of thumb's errors the play-outs count on.
//
// The opponent model and the calibrations are fitted to deals the bot plays against heuristic
// bots by `go run ./scripts/sleuthtrain` (train.go); the result, params.json, is
// embedded with its provenance. Config.NoInference and Config.NoModelReplies switch the
// inference off for comparison, Config.SolverDefence the play-outs of the defence,
// Config.PlayOutDefence the solver's part of it.
// docs/STRENGTH.md has the measurements.
package sleuth
