package match

import (
	"bufio"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/tapparena/tapp/arena/internal/domain"
)

// CommitmentVersion names the construction of Commitment; it is the text's first line.
const CommitmentVersion = "tapp deal commitment 1"

// NewNonce returns a fresh secret for a match's commitment: 16 random bytes in lowercase hex.
// Without it a bot could hash seed after seed until it found the match's, and know every deal.
func NewNonce() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return hex.EncodeToString(b[:])
}

// CommitmentText is what a match's commitment hashes: one line for the construction, the
// nonce, the rule set, the format and the deal source, then one line per planned table with
// its deal number, deal source and seating (bot names by seat, seat 0 forehand). Lines end in
// "\n"; docs/replay.md documents it for anyone who checks a commitment by hand. It holds a
// line per table: Commitment hashes the same text as it is written.
func CommitmentText(spec domain.MatchSpec, nonce string) (string, error) {
	var b strings.Builder
	if err := writeCommitment(&b, spec, nonce); err != nil {
		return "", err
	}
	return b.String(), nil
}

// writeCommitment writes CommitmentText to w, a table at a time.
func writeCommitment(w io.Writer, spec domain.MatchSpec, nonce string) error {
	s, err := NewSchedule(spec)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	format := spec.Format
	if format == "" {
		format = domain.FormatDeals
	}
	fmt.Fprintf(bw, "%s\nnonce %s\nrules %s\nformat %s rounds %d duplicate %t\n",
		CommitmentVersion, nonce, spec.Rules.String(), format, spec.Rounds, spec.Duplicate)
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
	for t := range s.All() {
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
	h := sha256.New()
	if err := writeCommitment(h, spec, nonce); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// VerifyCommitment checks a stored match against its commitment: nil when the spec, the
// revealed nonce and the plan they give hash to the commitment.
func VerifyCommitment(m *domain.Match) error {
	switch {
	case m.Commitment == "":
		return fmt.Errorf("match %s made no commitment (stored by an arena that did not commit)", m.ID)
	case m.Nonce == "":
		return fmt.Errorf("match %s: its nonce is not revealed", m.ID)
	}
	got, err := Commitment(m.Spec, m.Nonce)
	if err != nil {
		return err
	}
	if got != m.Commitment {
		return fmt.Errorf("match %s: its seed, rules and seating hash to %s, but it committed to %s", m.ID, got, m.Commitment)
	}
	return nil
}
