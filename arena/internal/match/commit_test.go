package match

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/engine"
)

// The commitment is a function of the seed, the rules, the seating plan and the nonce: the
// same inputs give the same hash, and a change to any of them another.
func TestCommitmentBindsSeedRulesSeatingAndNonce(t *testing.T) {
	t.Parallel()
	base := domain.MatchSpec{Rules: engine.DefaultRules(engine.Modern), Bots: []string{"a", "b", "c"}, Deals: 6, Seed: 8}
	nonce := NewNonce()
	want, err := Commitment(base, nonce)
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := Commitment(base, nonce); again != want || len(want) != 64 {
		t.Fatalf("commitment %q then %q: want the same 64 hex digits", want, again)
	}
	changed := map[string]func(*domain.MatchSpec, *string){
		"seed":      func(s *domain.MatchSpec, _ *string) { s.Seed = 9 },
		"seating":   func(s *domain.MatchSpec, _ *string) { s.Bots = []string{"b", "a", "c"} },
		"duplicate": func(s *domain.MatchSpec, _ *string) { s.Duplicate = true },
		"rules":     func(s *domain.MatchSpec, _ *string) { s.Rules.Stakes[engine.Solo] = 6 },
		"deals":     func(s *domain.MatchSpec, _ *string) { s.Deals = 7 },
		"nonce":     func(_ *domain.MatchSpec, n *string) { *n = NewNonce() },
	}
	for name, change := range changed {
		s, n := base, nonce
		s.Bots = append([]string(nil), base.Bots...)
		change(&s, &n)
		if got, err := Commitment(s, n); err != nil || got == want {
			t.Errorf("%s changed: commitment %q (%v), want another than %q", name, got, err, want)
		}
	}
	m := &domain.Match{ID: "m", Spec: base, Commitment: want, Nonce: nonce, CommitmentVersion: CommitmentVersionNumber}
	if err := VerifyCommitment(context.Background(), m); err != nil {
		t.Errorf("VerifyCommitment of the honest match: %v", err)
	}
	m.Spec.Seed = 1
	if err := VerifyCommitment(context.Background(), m); err == nil {
		t.Error("VerifyCommitment passed a match whose seed was changed after it committed")
	}
	if err := VerifyCommitment(context.Background(), &domain.Match{ID: "m", Spec: base, Commitment: want, Nonce: nonce}); err != nil {
		t.Errorf("a version-2 commitment of unrecorded version: %v", err)
	}
	// The text binds the manifest; a match stored before version 2 is checked in version 1.
	text, err := CommitmentText(base, nonce)
	if err != nil || !strings.HasPrefix(text, "tapp deal commitment 2\n") || !strings.Contains(text, "\nmanifest deals 6 groups 6 seatings 1\n") {
		t.Errorf("commitment text %q, %v; want version 2 with the manifest", text, err)
	}
	old, err := commitment(context.Background(), base, nonce, 1)
	if err != nil || old == want {
		t.Fatalf("version 1: %q, %v; want another hash than version 2's", old, err)
	}
	for _, version := range []int{0, 1} { // 0: the version not recorded
		m := &domain.Match{ID: "m", Spec: base, Commitment: old, Nonce: nonce, CommitmentVersion: version}
		if err := VerifyCommitment(context.Background(), m); err != nil {
			t.Errorf("a version-1 commitment stored as version %d: %v", version, err)
		}
	}
}

// A match created by the runner commits before its first deal and keeps the nonce with it.
func TestCreateCommits(t *testing.T) {
	t.Parallel()
	st := &createOnly{}
	r := &Runner{Store: st}
	spec := domain.MatchSpec{Rules: engine.DefaultRules(engine.Modern), Bots: []string{"a", "b", "c"}, Deals: 3, Seed: 8,
		TimeControl: domain.DefaultTimeControl}
	m, err := r.Create(t.Context(), spec)
	if err != nil {
		t.Fatal(err)
	}
	if st.created == nil || st.created.Commitment == "" || len(st.created.Nonce) != 32 {
		t.Fatalf("stored match %+v: want a commitment and a 32-digit nonce", st.created)
	}
	if err := VerifyCommitment(context.Background(), m); err != nil {
		t.Error(err)
	}
}

// createOnly is a store that keeps the one match created.
type createOnly struct {
	domain.Store
	created *domain.Match
}

func (s *createOnly) CreateMatch(_ context.Context, m *domain.Match) error {
	s.created = m
	return nil
}

// Checking the commitment of a match of the most deals walks a million tables: an interrupted
// command (its context ended) stops the walk with the context's error rather than finishing
// it, and the manifest counted as the plan is made is the one its collected tables give.
func TestCommitmentWalksStopWithTheirContext(t *testing.T) {
	t.Parallel()
	spec := domain.MatchSpec{Rules: engine.DefaultRules(engine.Modern), Bots: []string{"a", "b", "c"}, Deals: MaxDeals, Seed: 8, Duplicate: true}
	nonce := NewNonce()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	m := &domain.Match{ID: "m", Spec: spec, Commitment: strings.Repeat("0", 64), Nonce: nonce, CommitmentVersion: CommitmentVersionNumber}
	if err := VerifyCommitment(ctx, m); !errors.Is(err, context.Canceled) {
		t.Errorf("VerifyCommitment with its context ended: %v, want %v", err, context.Canceled)
	}
	if _, err := ManifestOfSpec(ctx, spec); !errors.Is(err, context.Canceled) {
		t.Errorf("ManifestOfSpec with its context ended: %v, want %v", err, context.Canceled)
	}
	small := spec
	small.Deals = 5
	got, err := ManifestOfSpec(context.Background(), small)
	tables, _ := Plan(small)
	if want := ManifestOf(tables); err != nil || got != want {
		t.Errorf("ManifestOfSpec = %+v, %v; want %+v", got, err, want)
	}
}

// The manifest counted a table at a time (ManifestOfSpec) is the one of the plan collected
// (ManifestOf), for every shape of plan: duplicate or not, three or four players, a session.
func TestManifestOfSpecIsThePlansManifest(t *testing.T) {
	t.Parallel()
	four, err := engine.ParseRuleSet("modern players=4")
	if err != nil {
		t.Fatal(err)
	}
	for _, spec := range []domain.MatchSpec{
		{Rules: engine.DefaultRules(engine.Modern), Bots: []string{"a", "b", "c"}, Deals: 7, Seed: 1},
		{Rules: engine.DefaultRules(engine.Modern), Bots: []string{"a", "b", "c"}, Deals: 7, Seed: 1, Duplicate: true},
		{Rules: four, Bots: []string{"a", "b", "c", "d"}, Deals: 5, Seed: 2, Duplicate: true},
		{Rules: engine.DefaultRules(engine.Modern), Bots: []string{"a", "b", "c"}, Seed: 3, Format: domain.FormatSession, Rounds: 2},
	} {
		got, err := ManifestOfSpec(t.Context(), spec)
		tables, perr := Plan(spec)
		if err != nil || perr != nil {
			t.Fatalf("%+v: %v, %v", spec, err, perr)
		}
		if want := ManifestOf(tables); got != want {
			t.Errorf("%+v: ManifestOfSpec = %+v, want %+v", spec, got, want)
		}
	}
}
