package store

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/tapparena/tapp/arena/internal/rating"
)

// TestSampleCellsReadsOnlyTheSample: on PostgreSQL the board's sample of deal sources reads
// the cells of the sample only, through the cells' index, whatever the table holds and
// whether or not its statistics know it large — the board of a league of a million deals
// (a cell per deal source) must not scan them all, nor run a subquery per cell while the
// table is new. The rows are the first sources' cells in key order.
func TestSampleCellsReadsOnlyTheSample(t *testing.T) {
	t.Parallel()
	s := openTest(t, newPostgresDSN(t))
	ctx := context.Background()
	const sources = 4000 // in each of two leagues: the other's cells are in the same index
	for _, league := range []string{"l", "other"} {
		if _, err := s.w.ExecContext(ctx, `INSERT INTO rating_scopes (league_id, rules) VALUES ($1, 'r')`, league); err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{
			`INSERT INTO rating_sources (scope, source, cells)
			SELECT (SELECT id FROM rating_scopes WHERE league_id = $1 AND rules = 'r'), lpad(to_hex(g), 16, '0'), 1
			FROM generate_series(1, $2::int) g`,
			`INSERT INTO rating_cells (scope, source, bots, deals, net0, net1, net2)
			SELECT (SELECT id FROM rating_scopes WHERE league_id = $1 AND rules = 'r'), lpad(to_hex(g), 16, '0'), 'a,b,c', 1, g, -g, 0
			FROM generate_series(1, $2::int) g`,
		} {
			if _, err := s.w.ExecContext(ctx, q, league, sources); err != nil {
				t.Fatal(err)
			}
		}
	}
	query := s.rebind(sampleCells(s.dialect, s.sourceRows()))
	args := []any{"l", "r", "l", "r"}
	for _, analyzed := range []bool{false, true} {
		if analyzed { // as autovacuum leaves it once the table has grown
			if _, err := s.w.ExecContext(ctx, `ANALYZE rating_sources, rating_cells`); err != nil {
				t.Fatal(err)
			}
		}
		var plan []byte
		if err := s.r.QueryRowContext(ctx, `EXPLAIN (ANALYZE, FORMAT JSON) `+query, args...).Scan(&plan); err != nil {
			t.Fatal(err)
		}
		read, err := cellRowsRead(plan)
		if err != nil {
			t.Fatal(err)
		}
		if read > rating.SampleSources {
			t.Errorf("analyzed %v: the sample of %d sources read %d rows of rating_cells (%d in the table); plan:\n%s",
				analyzed, rating.SampleSources, read, 2*sources, plan)
		}
		rows, err := s.r.QueryContext(ctx, query, args...)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for rows.Next() {
			var src, bots string
			var deals, n0, n1, n2, n3 int64
			if err := rows.Scan(&src, &bots, &deals, &n0, &n1, &n2, &n3); err != nil {
				t.Fatal(err)
			}
			n++
			if want := fmt.Sprintf("%016x", n); src != want || n0 != int64(n) {
				t.Fatalf("row %d: source %s net0 %d, want source %s net0 %d", n, src, n0, want, n)
			}
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		rows.Close()
		if n != rating.SampleSources {
			t.Errorf("analyzed %v: %d cells, want the sample's %d", analyzed, n, rating.SampleSources)
		}
	}
}

// cellRowsRead is what a plan of EXPLAIN (ANALYZE, FORMAT JSON) read of rating_cells: the
// rows its scans of that table returned and removed by their filters, over all their loops.
func cellRowsRead(plan []byte) (int, error) {
	var out []struct{ Plan planNode }
	if err := json.Unmarshal(plan, &out); err != nil {
		return 0, fmt.Errorf("read the plan %s: %w", plan, err)
	}
	if len(out) != 1 {
		return 0, fmt.Errorf("the plan %s is not one plan", plan)
	}
	var walk func(n planNode) int
	walk = func(n planNode) int {
		read := 0
		if n.Relation == "rating_cells" {
			read = (n.Rows + n.Removed) * n.Loops
		}
		for _, c := range n.Plans {
			read += walk(c)
		}
		return read
	}
	return walk(out[0].Plan), nil
}

// planNode is the part of a node of a JSON plan cellRowsRead reads.
type planNode struct {
	Relation string     `json:"Relation Name"`
	Rows     int        `json:"Actual Rows"`
	Removed  int        `json:"Rows Removed by Filter"`
	Loops    int        `json:"Actual Loops"`
	Plans    []planNode `json:"Plans"`
}
