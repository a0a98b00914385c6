// Package doubledummy is an exact perfect-information ("double-dummy") solver for Tapp trick
// play, with the positions, goals and payoffs built on it. The built-in search bot (package
// bots/search) solves sampled deals with it, and the arena's analysis of recorded deals
// measures every card and bid against it; bot authors may use it too.
//
// # Solver
//
// The solver (Solver, Position) plays out a perfect-information Tapp position for every
// contract goal: card points (exact, within a tolerance, or at least a target such as 61),
// every trick (Rufer, Durch, Tout), no trick (Bettel, Ouvert) and Ramsch. It is an
// alpha-beta search over bitmask hands with move ordering, equivalent-card pruning and a
// transposition table; see Solver. Ramsch, which is not a two-sided game, is solved
// paranoidly: the viewpoint seat minimises its own points against everybody else
// (GoalRamsch).
//
// # Positions and payoffs
//
// PositionOf and PlayPosition give the position of a deal in trick play (every hand of a real
// or sampled deal known); HandPosition and DeclaredPosition the position at the first lead of
// a contract someone might declare, with the declarer's lay-away, call and give chosen by
// the rules of thumb in declare.go (FrageDiscards, RuferCall, RuferGive). Scorer turns the
// solver's value (card points or tricks) into the engine's settlement: modern stakes, the
// older variants' game points and pot.
package doubledummy
