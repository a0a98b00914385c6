package sleuth

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/tapparena/tapp/engine"
)

// The trained parameters: the opponent model and the calibration, with their provenance, as
// `tapp-train-sleuth` (see train.go) writes them.

// Params is the content of params.json.
type Params struct {
	Model Model `json:"model"`
	// Calibrations by table family (Family).
	Calibrations map[string]Calibration `json:"calibrations"`
	// Provenance says how the parameters were made: the command, the version of the code, the
	// records they were fitted to and the fit's figures.
	Provenance map[string]any `json:"provenance"`
}

//go:embed params.json
var paramsJSON []byte

var trained = sync.OnceValue(func() *Params {
	p, err := ParseParams(paramsJSON)
	if err != nil {
		panic(fmt.Sprintf("sleuth: embedded params.json: %v", err)) // a build defect, caught by the tests
	}
	return p
})

// ParseParams reads and checks a params.json.
func ParseParams(data []byte) (*Params, error) {
	var p Params
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, err
	}
	if !p.Model.Valid() {
		return nil, fmt.Errorf("model: every probability must lie strictly between 0 and 1")
	}
	for _, f := range families {
		cal, ok := p.Calibrations[f]
		if !ok {
			return nil, fmt.Errorf("calibration of %s missing", f)
		}
		for c := range cal.Win {
			for r := range cal.Win[c] {
				for _, w := range cal.Win[c][r] {
					if w < 0 || w > 1 {
						return nil, fmt.Errorf("calibration %s: chance %v outside [0, 1]", f, w)
					}
				}
			}
		}
	}
	return &p, nil
}

// TrainedParams returns the parameters the bot uses by default (a copy).
func TrainedParams() Params { return *trained() }

func trainedModel() *Model {
	m := trained().Model
	return &m
}

// The table families, each with a calibration of its own: modern with 3 and with 4 players
// (either pack), and the older variants.
var families = []string{"modern-3", "modern-4", "older"}

// Family names the calibration a rule set uses.
func Family(r engine.RuleSet) string {
	switch {
	case r.Variant != engine.Modern:
		return "older"
	case r.Players == 4:
		return "modern-4"
	}
	return "modern-3"
}

func trainedCalibrations() map[string]Calibration { return trained().Calibrations }
