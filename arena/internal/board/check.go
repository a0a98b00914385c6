package board

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
)

// KeptCheck is what `tapp ratings --recompute` found comparing the board of the store's kept
// sums with the board recomputed from the raw results: identical, or where they differ.
type KeptCheck struct {
	Identical   bool     `json:"identical"`
	Differences []string `json:"differences,omitempty"` // the first few, as JSON paths: kept ≠ raw
}

// maxDifferences bounds the differences a check lists.
const maxDifferences = 5

// CheckKept compares the board of the kept sums with the board of the raw results, figure by
// figure (every field of the boards' JSON).
func CheckKept(kept, raw *Leaderboard) (*KeptCheck, error) {
	var a, b any
	for _, x := range []struct {
		lb  *Leaderboard
		dst *any
	}{{kept, &a}, {raw, &b}} {
		js, err := json.Marshal(x.lb)
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(js, x.dst); err != nil {
			return nil, err
		}
	}
	c := &KeptCheck{}
	diffJSON("", a, b, &c.Differences)
	c.Identical = len(c.Differences) == 0
	return c, nil
}

// diffJSON appends to out the paths at which a and b differ, up to maxDifferences.
func diffJSON(path string, a, b any, out *[]string) {
	if len(*out) >= maxDifferences {
		return
	}
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			break
		}
		keys := slices.Sorted(maps.Keys(x))
		for k := range y {
			if _, ok := x[k]; !ok {
				keys = append(keys, k)
			}
		}
		for _, k := range keys {
			diffJSON(path+"."+k, x[k], y[k], out)
		}
		return
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			break
		}
		for i := range x {
			diffJSON(fmt.Sprintf("%s[%d]", path, i), x[i], y[i], out)
		}
		return
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if string(ja) != string(jb) {
		*out = append(*out, fmt.Sprintf("%s: kept %s, raw %s", path, clip(ja), clip(jb)))
	}
}

func clip(b []byte) string {
	if len(b) > 60 {
		return string(b[:57]) + "…"
	}
	return string(b)
}
