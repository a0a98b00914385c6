package match

import (
	"bufio"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/tapparena/tapp/arena/internal/domain"
)

// CommitmentVersion names the construction of Commitment that this build makes; it is the
// text's first line. Version 1 (without the manifest line) is still checked for the matches
// that made it.
const CommitmentVersion = "tapp deal commitment 2"

// CommitmentVersionNumber is CommitmentVersion's number, as a match stores it.
const CommitmentVersionNumber = 2

// Manifest is what a match's plan holds: its deals, its deal sources (groups) and the
// seatings each source is played under. A match is complete when every one of its deals is
// stored: its commitment binds the manifest, so that a missing deal cannot pass for one never
// planned.
type Manifest struct {
	Deals, Groups, Seatings int
}

// ManifestOf counts a plan's deals, groups and the seatings of its largest group.
func ManifestOf(tables []Table) Manifest {
	per := map[int]int{}
	m := Manifest{Deals: len(tables)}
	for _, t := range tables {
		per[t.Group]++
		m.Seatings = max(m.Seatings, per[t.Group])
	}
	m.Groups = len(per)
	return m
}

// NewNonce returns a fresh secret for a match's commitment: 16 random bytes in lowercase hex.
// Without it a bot could hash seed after seed until it found the match's, and know every deal.
func NewNonce() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return hex.EncodeToString(b[:])
}

// CommitmentText is what a match's commitment hashes (version 2): one line for the
// construction, the nonce, the rule set, the format and the deal source, the manifest
// ("manifest deals 36 groups 6 seatings 6"), then one line per planned table with its deal
// number, deal source and seating (bot names by seat, seat 0 forehand). Lines end in "\n";
// docs/replay.md documents it for anyone who checks a commitment by hand. It holds a line
// per table: Commitment hashes the same text as it is written.
func CommitmentText(spec domain.MatchSpec, nonce string) (string, error) {
	var b strings.Builder
	if err := writeCommitment(context.Background(), &b, spec, nonce, CommitmentVersionNumber); err != nil {
		return "", err
	}
	return b.String(), nil
}

// checkEvery is how many tables the walks over a whole plan go between looks at their
// context: a plan may hold a million tables, and an interrupted command stops within seconds.
const checkEvery = 4096

// scheduleManifest is ManifestOf the schedule's tables, counted a table at a time (no table
// is kept); it stops with ctx's error. A schedule yields each group's tables together, in
// the groups' order, and then nothing is kept per group either: a plan of a million deal
// sources is counted in flat memory (a map of them held 35 MB).
func scheduleManifest(ctx context.Context, s *Schedule) (Manifest, error) {
	if m, ok, err := orderedManifest(ctx, s); ok || err != nil {
		return m, err
	}
	return mappedManifest(ctx, s)
}

// orderedManifest counts the manifest of a schedule whose groups come whole and in order; ok
// is false once a table's group is one counted before (then mappedManifest counts it).
func orderedManifest(ctx context.Context, s *Schedule) (m Manifest, ok bool, err error) {
	group, tables := -1, 0 // the group being counted and its tables so far
	for t := range s.All() {
		if m.Deals%checkEvery == 0 && ctx.Err() != nil {
			return Manifest{}, false, ctx.Err()
		}
		switch {
		case t.Group == group:
			tables++
		case t.Group > group:
			group, tables = t.Group, 1
			m.Groups++
		default:
			return Manifest{}, false, nil
		}
		m.Deals++
		m.Seatings = max(m.Seatings, tables)
	}
	return m, true, nil
}

// mappedManifest counts the manifest of any schedule, keeping each group's tables.
func mappedManifest(ctx context.Context, s *Schedule) (Manifest, error) {
	per := map[int]int{}
	var m Manifest
	for t := range s.All() {
		if m.Deals%checkEvery == 0 && ctx.Err() != nil {
			return Manifest{}, ctx.Err()
		}
		m.Deals++
		per[t.Group]++
		m.Seatings = max(m.Seatings, per[t.Group])
	}
	m.Groups = len(per)
	return m, nil
}

// ManifestOfSpec is ManifestOf the match's planned tables, counted as they are made rather
// than collected (a plan of a million deals is not held in memory); it stops with ctx's error.
func ManifestOfSpec(ctx context.Context, spec domain.MatchSpec) (Manifest, error) {
	s, err := NewSchedule(spec)
	if err != nil {
		return Manifest{}, err
	}
	return scheduleManifest(ctx, s)
}

// writeCommitment writes CommitmentText in construction version (1: without the manifest
// line) to w, a table at a time; it stops with ctx's error.
func writeCommitment(ctx context.Context, w io.Writer, spec domain.MatchSpec, nonce string, version int) error {
	if version != 1 && version != 2 {
		return fmt.Errorf("commitment version %d: this build knows versions 1 and 2", version)
	}
	s, err := NewSchedule(spec)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	format := spec.Format
	if format == "" {
		format = domain.FormatDeals
	}
	fmt.Fprintf(bw, "tapp deal commitment %d\nnonce %s\nrules %s\nformat %s rounds %d duplicate %t\n",
		version, nonce, spec.Rules.String(), format, spec.Rounds, spec.Duplicate)
	count := spec.Deals
	if format == domain.FormatSession {
		count = 0 // a session's deals are counted by its plan, not by Deals
	}
	if spec.DealsText != "" {
		sum := sha256.Sum256([]byte(spec.DealsText))
		fmt.Fprintf(bw, "deals file sha256 %s count %d\n", hex.EncodeToString(sum[:]), count)
	} else {
		fmt.Fprintf(bw, "deals seed %s count %d\n", strconv.FormatUint(spec.Seed, 10), count)
	}
	if version >= 2 {
		mf, err := scheduleManifest(ctx, s)
		if err != nil {
			return err
		}
		fmt.Fprintf(bw, "manifest deals %d groups %d seatings %d\n", mf.Deals, mf.Groups, mf.Seatings)
	}
	for t := range s.All() {
		if t.Number%checkEvery == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		bw.WriteString("table ")
		bw.WriteString(strconv.Itoa(t.Number))
		bw.WriteString(" group ")
		bw.WriteString(strconv.Itoa(t.Group))
		bw.WriteString(" seating ")
		bw.WriteString(strings.Join(t.Seating, ","))
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// Commitment is the lowercase hex SHA-256 of CommitmentText.
func Commitment(spec domain.MatchSpec, nonce string) (string, error) {
	return commitment(context.Background(), spec, nonce, CommitmentVersionNumber)
}

func commitment(ctx context.Context, spec domain.MatchSpec, nonce string, version int) (string, error) {
	h := sha256.New()
	if err := writeCommitment(ctx, h, spec, nonce, version); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Commit gives m, not stored yet, a fresh nonce and its commitment (this build's version).
func Commit(m *domain.Match) error {
	m.Nonce = NewNonce()
	c, err := Commitment(m.Spec, m.Nonce)
	if err != nil {
		return err
	}
	m.Commitment, m.CommitmentVersion = c, CommitmentVersionNumber
	return nil
}

// VerifyCommitment checks a stored match against its commitment: nil when the spec, the
// revealed nonce and the plan they give hash to the commitment, in the construction the match
// says it used. Version 0 is a commitment whose construction was not recorded (a match stored
// before versions were, one imported from a record that does not say): it holds if either
// construction gives it. It walks the whole plan, and stops with ctx's error.
func VerifyCommitment(ctx context.Context, m *domain.Match) error {
	switch {
	case m.Commitment == "":
		return fmt.Errorf("match %s made no commitment (stored by an arena that did not commit)", m.ID)
	case m.Nonce == "":
		return fmt.Errorf("match %s: its nonce is not revealed", m.ID)
	}
	versions := []int{m.CommitmentVersion}
	if m.CommitmentVersion == 0 {
		versions = []int{1, 2}
	}
	var got string
	for _, v := range versions {
		var err error
		if got, err = commitment(ctx, m.Spec, m.Nonce, v); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("match %s: %w", m.ID, err)
		}
		if got == m.Commitment {
			return nil
		}
	}
	return fmt.Errorf("match %s: its seed, rules, manifest and seating hash to %s, but it committed to %s", m.ID, got, m.Commitment)
}
