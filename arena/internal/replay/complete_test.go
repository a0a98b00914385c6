package replay

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/match"
	"github.com/tapparena/tapp/arena/internal/store"
)

// completeMatch stores a finished, committed match of 6 deals in a SQLite file, the deals
// stored out of order (as parallel tables finish), and returns the file and the match's id.
func completeMatch(t *testing.T) (string, string) {
	t.Helper()
	ctx := context.Background()
	m, recs := play(t, "modern", 6)
	path := filepath.Join(t.TempDir(), "tapp.db")
	st, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	am := &domain.Match{ID: m.ID, Spec: domain.MatchSpec{Rules: m.Rules, Bots: m.Bots, Deals: len(recs), Seed: m.Seed,
		TimeControl: m.TimeControl}}
	if err := match.Commit(am); err != nil {
		t.Fatal(err)
	}
	if err := st.CreateMatch(ctx, am); err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 0, 2, 3, 5, 4} {
		if err := st.SaveDeal(ctx, &recs[n]); err != nil {
			t.Fatal(err)
		}
	}
	am.Status = domain.MatchFinished
	if err := st.UpdateMatch(ctx, am); err != nil {
		t.Fatal(err)
	}
	return path, m.ID
}

// tampered is a copy of the database file after the SQL statements.
func tampered(t *testing.T, path string, stmts ...string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cp := filepath.Join(t.TempDir(), "tampered.db")
	if err := os.WriteFile(cp, data, 0o644); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", cp)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	return cp
}

func verifyFile(t *testing.T, path, id string) *Report {
	t.Helper()
	st, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rep, err := VerifyStored(context.Background(), st, id)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func rules(ps []Problem) string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Rule)
	}
	return strings.Join(out, " ")
}

// Verifying a store finds a deal deleted (in the middle of the chain or at its end), altered,
// renumbered, moved between places of the chain, or brought from another match, and a
// commitment removed; the honest store is complete.
func TestVerifyStoredProvesTheMatchComplete(t *testing.T) {
	t.Parallel()
	path, id := completeMatch(t)
	rep := verifyFile(t, path, id)
	if !rep.OK() || len(rep.Complete) != 1 || len(rep.Chains) != 1 || len(rep.Commitments) != 1 || rep.Deals != 6 {
		t.Fatalf("the honest store: %+v; want 6 deals, complete, chained, the commitment holding", rep)
	}
	where := "match_id = '" + id + "'"
	for _, c := range []struct {
		name  string
		stmts []string
		want  string // a rule the problems must name
	}{
		{"a deal deleted", []string{"DELETE FROM deals WHERE " + where + " AND number = 2"}, RecMissing},
		{"the last stored deleted", []string{"DELETE FROM deals WHERE " + where + " AND number = 4"}, RecMissing},
		{"a deal altered", []string{"UPDATE deals SET duration_us = duration_us + 1 WHERE " + where + " AND number = 3"}, RecChain},
		{"two deals swap places", []string{"UPDATE deals SET chain_seq = 7 - chain_seq WHERE " + where + " AND number IN (3, 5)"}, RecChain},
		{"two deals swap numbers", []string{"UPDATE deals SET number = -1 WHERE " + where + " AND number = 3",
			"UPDATE deals SET number = 3 WHERE " + where + " AND number = 5",
			"UPDATE deals SET number = 5 WHERE " + where + " AND number = -1"}, RecChain},
		{"a deal of another match", []string{
			"INSERT INTO matches (" + otherCols("id") + ") SELECT " + otherCols("'other'") + " FROM matches WHERE id = '" + id + "'",
			"UPDATE deals SET match_id = 'other' WHERE " + where + " AND number = 0"}, RecMissing},
		{"the commitment removed", []string{"UPDATE matches SET commitment = '', nonce = '' WHERE id = '" + id + "'"}, RecCommitment},
	} {
		rep := verifyFile(t, tampered(t, path, c.stmts...), id)
		if rep.OK() || !strings.Contains(rules(rep.Problems), c.want) || len(rep.Complete) != 0 {
			t.Errorf("%s: problems %v, complete %v; want a %s problem and no claim of completeness", c.name, rep.Problems, rep.Complete, c.want)
		}
	}
}

// Verifying an export finds a line twice, lines out of order, lines missing, a line of
// another match, a changed match id, a line altered, and a commitment and nonce removed; the
// honest export is complete, and an excerpt says what it is.
func TestVerifyExportProvesTheMatchComplete(t *testing.T) {
	t.Parallel()
	path, id := completeMatch(t)
	st, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var buf bytes.Buffer
	if n, _, err := ExportStored(context.Background(), st, id, nil, &buf, ExportOptions{NoSent: true}); err != nil || n != 6 {
		t.Fatalf("ExportStored = %d, %v", n, err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	verify := func(ls []string) *Report {
		rep, err := VerifyExport(t.Context(), strings.NewReader(strings.Join(ls, "\n")))
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	if rep := verify(lines); !rep.OK() || len(rep.Complete) != 1 || len(rep.Chains) != 1 {
		t.Fatalf("the honest export: %+v; want it complete and chained", rep)
	}
	edit := func(line string, f func(map[string]any)) string {
		var v map[string]any
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatal(err)
		}
		f(v)
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	each := func(f func(map[string]any)) []string {
		out := make([]string, len(lines))
		for i, l := range lines {
			out[i] = edit(l, f)
		}
		return out
	}
	other := func() string { // a line of another match of the same bots
		p2, id2 := completeMatch(t)
		st2, err := store.Open(context.Background(), p2)
		if err != nil {
			t.Fatal(err)
		}
		defer st2.Close()
		var b bytes.Buffer
		if _, _, err := ExportStored(context.Background(), st2, id2, nil, &b, ExportOptions{NoSent: true}); err != nil {
			t.Fatal(err)
		}
		return edit(strings.SplitN(b.String(), "\n", 2)[0], func(v map[string]any) { v["match"] = id })
	}()
	for _, c := range []struct {
		name  string
		lines []string
		want  string
	}{
		{"a line twice", append(append([]string{}, lines...), lines[2]), RecDuplicate},
		{"two lines swapped", []string{lines[0], lines[2], lines[1], lines[3], lines[4], lines[5]}, RecOrder},
		{"two of six", lines[:2], RecMissing},
		{"one gone from the middle", append(append([]string{}, lines[:3]...), lines[4:]...), RecMissing},
		{"a line of another match", append(append([]string{}, lines[:5]...), other), RecForeign},
		{"the match id changed", each(func(v map[string]any) { v["match"] = "someone-else" }), RecForeign},
		{"a line altered", append(append([]string{}, lines[:3]...), append([]string{edit(lines[3], func(v map[string]any) {
			v["duration_us"] = v["duration_us"].(float64) + 1
		})}, lines[4:]...)...), RecChain},
		{"commitment and nonce stripped", each(func(v map[string]any) { delete(v, "commitment"); delete(v, "nonce") }), RecCommitment},
		{"the chain stripped", each(func(v map[string]any) { delete(v, "chain") }), RecChain},
	} {
		rep := verify(c.lines)
		if rep.OK() || !strings.Contains(rules(rep.Problems), c.want) || len(rep.Complete) != 0 {
			t.Errorf("%s: problems %v, complete %v; want a %s problem and no claim of completeness", c.name, rep.Problems, rep.Complete, c.want)
		}
	}

	// An excerpt is checked as far as it goes, and says it is one.
	buf.Reset()
	three := 3
	if _, _, err := ExportStored(context.Background(), st, id, &three, &buf, ExportOptions{}); err != nil {
		t.Fatal(err)
	}
	rep, err := VerifyExport(t.Context(), &buf)
	if err != nil || !rep.OK() || len(rep.Complete) != 0 || !strings.Contains(strings.Join(rep.Unchecked, "\n"), "an excerpt (deal 3)") {
		t.Errorf("an excerpt: %+v, %v; want no problem, no completeness and a note that it is an excerpt", rep, err)
	}
}

// otherCols lists a match's columns, the first (its id) as first: to copy a match under
// another id.
func otherCols(first string) string {
	return first + ", league_id, rules, bots, deals, seed, duplicate, deals_text, per_decision_us, overage_us, " +
		"max_strikes, status, started, finished, forfeited, format, rounds, commitment, nonce, decisions, fallbacks, " +
		"commitment_version, chain_version, chain_len, chain_head, clock_scope, admission"
}
