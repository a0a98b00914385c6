package plan

// Formats a league can have.
const (
	RoundRobin = "round-robin" // every table of the bots, each round
	Gauntlet   = "gauntlet"    // every table of the candidate with the others, each round
	Ladder     = "ladder"      // rounds of tables chosen for the most uncertain ratings
	SPRTFormat = "sprt"        // candidate and baseline against the same field on the same deals
)

// DefaultDeals is the number of deal sources per match when a plan leaves it out.
const DefaultDeals = 10
