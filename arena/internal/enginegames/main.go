// Command enginegames writes random games played by the Go engine, for the Python game model's
// differential test (bots/python/tests/test_game_differential.py): per deal the cards, every
// move with the legal list the engine offered before it, the settlement, and one seat's
// observation at a random point as the wire sends it (protobuf JSON). It is test tooling, not
// part of the arena.
//
//	go run ./arena/internal/enginegames -rules "modern players=3" -deals 1000 -seed 1 > games.jsonl
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"google.golang.org/protobuf/encoding/protojson"

	"github.com/tapparena/tapp/arena/internal/protoconv"
	"github.com/tapparena/tapp/arena/internal/replay"
	"github.com/tapparena/tapp/engine"
)

type game struct {
	Rules        string             `json:"rules"`
	Seed         string             `json:"seed"`
	DealNumber   int                `json:"deal_number"`
	Hands        [][]string         `json:"hands"`
	Tapp         []string           `json:"tapp"`
	Pot          int                `json:"pot"`
	ForcedRamsch bool               `json:"forced_ramsch"`
	Moves        []string           `json:"moves"`
	Legal        [][]string         `json:"legal"`
	Outcome      replay.OutcomeJSON `json:"outcome"`
	Probes       []probe            `json:"probes"`
	ObsMove      int                `json:"obs_move"`
	ObsSeat      int                `json:"obs_seat"`
	Observation  json.RawMessage    `json:"observation"`
}

// probe is an illegal action tried before move Move, and the engine's error for it.
type probe struct {
	Move   int    `json:"move"`
	Action string `json:"action"`
	Error  string `json:"error"`
}

// universe is the text of every action of the notation, legal somewhere or not.
func universe() []string {
	out := []string{"pass", "play", "tout", "notout"}
	for s := engine.Suit(0); s < engine.NumSuits; s++ {
		out = append(out, "trump:"+s.String())
	}
	for c := engine.Frage; c <= engine.HeartDurch; c++ {
		out = append(out, c.String())
		if c == engine.Solo || c == engine.Rufer || c == engine.Durch {
			for s := engine.Suit(0); s < engine.NumSuits; s++ {
				out = append(out, c.String()+":"+s.String())
			}
		}
	}
	for c := engine.Card(0); c < engine.NumCards; c++ {
		out = append(out, c.String(), "discard:"+c.String(), "call:"+c.String(), "give:"+c.String())
	}
	return out
}

func main() {
	rulesText := flag.String("rules", "modern", "rule sets, separated by ';' (deals are spread over them in turn)")
	deals := flag.Int("deals", 100, "deals to play")
	seed := flag.Uint64("seed", 1, "seed of the deals and of the random choices")
	flag.Parse()
	var sets []engine.RuleSet
	for _, t := range strings.Split(*rulesText, ";") {
		if strings.TrimSpace(t) == "" {
			continue
		}
		r, err := engine.ParseRuleSet(t)
		if err != nil {
			fmt.Fprintln(os.Stderr, "enginegames:", err)
			os.Exit(2)
		}
		sets = append(sets, r)
	}
	if len(sets) == 0 {
		fmt.Fprintln(os.Stderr, "enginegames: no rule set")
		os.Exit(2)
	}
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	rng := engine.NewRand(*seed, 1<<40)
	marshal := protojson.MarshalOptions{UseProtoNames: true}
	texts := universe()
	for i := 0; i < *deals; i++ {
		r := sets[i%len(sets)]
		d := engine.DealFromSeed(r, *seed, uint64(i))
		o := engine.Options{}
		if r.Pot && rng.IntN(2) == 0 {
			o.Pot = rng.IntN(40)
			if rng.IntN(4) == 0 {
				o.Pot = engine.MaxPot - o.Pot // at and near the cap (R-POT-CAP)
			}
		}
		if r.Variant == engine.Modern && rng.IntN(10) == 0 {
			o.ForcedRamsch = true
		}
		st, err := engine.NewState(r, d, o)
		if err != nil {
			fmt.Fprintln(os.Stderr, "enginegames:", err)
			os.Exit(1)
		}
		g := game{Rules: r.String(), Seed: strconv.FormatUint(*seed, 10), DealNumber: i, Tapp: cards(d.Tapp),
			Pot: o.Pot, ForcedRamsch: o.ForcedRamsch, Moves: []string{}, Legal: [][]string{}, Probes: []probe{}}
		for s := 0; s < r.Players; s++ {
			g.Hands = append(g.Hands, cards(d.Hands[s]))
		}
		// The observation is taken before move obsAt (or at the end when obsAt is past it).
		obsAt := rng.IntN(40)
		g.ObsSeat = rng.IntN(r.Players)
		var legal []engine.Action
		for !st.Terminal() {
			if len(st.History()) == obsAt {
				g.setObservation(st, marshal)
			}
			legal = st.LegalActions(legal[:0])
			names := make([]string, len(legal))
			for k, a := range legal {
				names[k] = a.String()
			}
			if rng.IntN(8) == 0 { // try an action that may be illegal here
				text := texts[rng.IntN(len(texts))]
				if pa, err := engine.ParseAction(text); err == nil {
					if err := st.Check(pa); err != nil {
						g.Probes = append(g.Probes, probe{Move: len(st.History()), Action: text, Error: err.Error()})
					}
				}
			}
			a := legal[rng.IntN(len(legal))]
			g.Legal = append(g.Legal, names)
			g.Moves = append(g.Moves, engine.Move{Seat: st.ToMove(), Action: a}.String())
			if err := st.Apply(a); err != nil {
				fmt.Fprintln(os.Stderr, "enginegames: the engine refuses its own legal action:", err)
				os.Exit(1)
			}
		}
		if g.Observation == nil {
			g.setObservation(st, marshal)
		}
		g.Outcome = replay.OutcomeToJSON(st.Outcome(), r.Players)
		b, err := json.Marshal(&g)
		if err != nil {
			fmt.Fprintln(os.Stderr, "enginegames:", err)
			os.Exit(1)
		}
		w.Write(append(b, '\n'))
	}
}

func (g *game) setObservation(st *engine.State, m protojson.MarshalOptions) {
	obs := st.Observe(engine.Seat(g.ObsSeat))
	b, err := m.Marshal(protoconv.ObservationToProto(&obs))
	if err != nil {
		fmt.Fprintln(os.Stderr, "enginegames:", err)
		os.Exit(1)
	}
	g.ObsMove = len(st.History())
	g.Observation = b
}

func cards(s engine.CardSet) []string {
	out := []string{}
	for _, c := range s.Cards(nil) {
		out = append(out, c.String())
	}
	return out
}
