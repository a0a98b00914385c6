// Package analysis is the double-dummy account of recorded deals: for every deal the par of
// the contract as played, for every card the points (or cents) it lost against perfect play,
// and for every bidder the regret of its bidding, with per-bot means over many deals. A
// deal's result carries all the luck of the cards; its analysis does not, so two bots can be
// told apart in a few hundred deals instead of thousands.
//
// Everything is computed by the exact perfect-information solver of package bots/doubledummy
// (the one the search bot uses), with its positions, goals and payoffs.
//
// # Par
//
// The par of a deal is its result when every seat plays perfectly from the first lead on,
// every card known to everyone (the position after bidding and declaration: the Frage
// lay-away, the Rufer exchange and a Tout announcement as they were made). It is given in
// card points (point contracts) and as the declarer's payoff in the rule set's unit (cents in
// modern, game points in the older variants; the dealer's pot ante, the same whatever is
// played, is left out). Ramsch, in which every player plays for himself, has no two-sided
// par; a thrown-in deal has none either.
//
// # Loss of a card
//
// Before each card the solver values every legal card for the seat to play: the seat's
// payoff under perfect play after that card. The loss of the card played is the best of
// these minus the one it got (0 for a best card, never negative), in the rule set's unit;
// Best lists the cards that keep par. Only what scores is searched: in modern point
// contracts 61 or not, in trick contracts made or not, in the older variants' point
// contracts the exact card points (their margin scores), and there LossPoints gives the card
// points lost too. In Ramsch each card is valued paranoidly — the seat's own final points
// when it keeps them as low as it can and every other seat plays against it (GoalRamsch) —
// and its loss is in card points (Decision.Unit); the first tricks of a Ramsch are too costly
// to search this way and are left out (RamschTricks).
//
// # Bidding regret
//
// Each seat that bid is compared with the best contract it could have named: every contract
// of the rule set (each trump suit where one is named), valued as if the seat had declared it
// and the deal had been played perfectly by everyone, the Frage lay-away and the Rufer call
// chosen by the solver package's rules of thumb (doubledummy.DeclaredPosition) and no Tout
// announced; passing is worth 0. What the seat did is worth the par of its contract when it
// became the declarer, else 0 (it did not declare). The regret is the best minus what it did, never negative. The other seats'
// bids are not taken into account (a contract the seat could not have won is still counted).
//
// How the information a bidder could not have had is treated is an option:
//   - Options.BidSamples = 0 (the default): full information. Contracts are valued on the
//     real deal, so the regret also counts luck the bidder could not see (the tapp and the
//     others' hands); it is an upper bound of what better bidding could have earned, useful
//     to compare bots on the same (duplicate) deals, not as an absolute.
//   - Options.BidSamples = K > 0: each contract is valued by its mean over K deals drawn
//     consistently with what the seat knew at its first bid (engine.Observation.Sample,
//     seeded from Options.Seed and the deal: deterministic), the same for what it did; the
//     regret is then what the seat could have known to be better. It costs about K times as
//     much.
//
// # Per bot
//
// Summarize gives, per bot, the mean card-play error per deal (the sum of its cards' losses
// in one deal, averaged over the deals it sat in, Ramsch deals apart in card points) and the
// mean bidding regret per deal, each with a 95% interval (normal approximation).
//
// Files: doc.go, deal.go (one deal), cards.go (card play), bidding.go (bidding regret),
// summary.go (per-bot means), run.go (many deals in parallel, stored analyses), change.go
// (what another action at a recorded decision is worth: tapp replay diff).
package analysis
