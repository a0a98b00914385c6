package dealchain_test

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/dealchain"
	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/replay/replaytest"
	"github.com/tapparena/tapp/engine"
)

// The canonical text is what every stored chain was linked with: Text must write, byte for
// byte, what its first version (this reference, written with fmt) wrote — over real deals of
// every variant, with refused answers, flooded counts, think times and names of any bytes.
func TestTextIsTheFirstVersionsText(t *testing.T) {
	t.Parallel()
	for _, rules := range replaytest.RuleSets {
		m, recs := replaytest.Play(t, rules, 4)
		for i := range recs {
			rec := &recs[i]
			if i == 1 {
				rec.Decisions[2].Flooded = 9
				rec.Decisions[0].Bot = "bötchen 1:2"
				rec.Decisions[3].Attempts = append(rec.Decisions[3].Attempts,
					domain.AnswerAttempt{Text: "x y\nz", After: 1234567, Rejected: "PROTO-DUPLICATE: ü"})
				x := &rec.Decisions[4]
				x.Observed, x.Deadline, x.Overage = true, rec.Started.Add(1500*time.Millisecond), 2*time.Second
			}
			digest := domain.SentDigest(rec.Decisions)
			want := referenceText(rec, digest[:], m.Spec.Rules.Players)
			if i == 2 { // a record whose decisions and results are out of order has the text of its sorted copy
				slices.Reverse(rec.Decisions)
				slices.Reverse(rec.Results)
			}
			if got := dealchain.Text(rec, digest[:], m.Spec.Rules.Players); got != want {
				t.Fatalf("%s deal %d: Text differs from the first version's:\n%s\nwant\n%s", rules, rec.Number, got, want)
			}
			if got := dealchain.Digest(rec, digest[:], m.Spec.Rules.Players); got != sha256.Sum256([]byte(want)) {
				t.Fatalf("%s deal %d: Digest is not the SHA-256 of Text", rules, rec.Number)
			}
		}
	}
}

// referenceText is dealchain.Text as version 1 was first written (with fmt); never change it.
func referenceText(rec *domain.DealRecord, sentDigest []byte, players int) string {
	var b strings.Builder
	str := func(s string) { b.WriteString(strconv.Itoa(len(s))); b.WriteByte(':'); b.WriteString(s) }
	flag := func(v bool) int {
		if v {
			return 1
		}
		return 0
	}
	cards := func(set engine.CardSet) {
		var buf [engine.NumCards]engine.Card
		for i, c := range set.Cards(buf[:0]) {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(c.String())
		}
	}
	b.WriteString("tapp deal record 1\nmatch ")
	str(rec.MatchID)
	fmt.Fprintf(&b, "\ndeal %d group %d\nseating %d", rec.Number, rec.Group, len(rec.Seating))
	for _, s := range rec.Seating {
		b.WriteByte(' ')
		str(s)
	}
	b.WriteByte('\n')
	for s := 0; s < players; s++ {
		fmt.Fprintf(&b, "hand %d ", s)
		cards(rec.Deal.Hands[s])
		b.WriteByte('\n')
	}
	b.WriteString("tapp ")
	cards(rec.Deal.Tapp)
	fmt.Fprintf(&b, "\noptions pot %d forced_ramsch %d\nmoves %d", rec.Options.Pot, flag(rec.Options.ForcedRamsch), len(rec.Moves))
	for _, m := range rec.Moves {
		b.WriteByte(' ')
		b.WriteString(m.String())
	}
	b.WriteByte('\n')
	ds := slices.Clone(rec.Decisions)
	slices.SortStableFunc(ds, func(a, b domain.DecisionRecord) int { return cmp.Compare(a.Index, b.Index) })
	for _, x := range ds {
		fmt.Fprintf(&b, "decision %d seat %d bot ", x.Index, x.Seat)
		str(x.Bot)
		fmt.Fprintf(&b, " kind %s request ", x.Decision)
		str(x.RequestID)
		fmt.Fprintf(&b, " action %s latency_us %d arena_share_us %d think_us %d strike %d fallback %d attempts %d",
			x.Action, x.Latency.Microseconds(), x.ArenaShare.Microseconds(), x.Think.Microseconds(),
			flag(x.Strike), flag(x.Fallback), len(x.Attempts))
		if x.Flooded != 0 {
			fmt.Fprintf(&b, " flooded %d", x.Flooded)
		}
		if x.Observed { // added with record format 2, written only when set
			fmt.Fprintf(&b, " observed 1 deadline_us %d overage_us %d", x.Deadline.UnixMicro(), x.Overage.Microseconds())
		}
		b.WriteByte('\n')
		for _, a := range x.Attempts {
			b.WriteString("attempt ")
			str(a.Text)
			fmt.Fprintf(&b, " after_us %d rejected ", a.After.Microseconds())
			str(a.Rejected)
			b.WriteByte('\n')
		}
	}
	o := &rec.Outcome
	contract, trump := "", ""
	if o.Contract != engine.NoContract {
		contract = o.Contract.String()
	}
	if o.Trump < engine.NumSuits {
		trump = o.Trump.String()
	}
	fmt.Fprintf(&b, "outcome thrown_in %d declarer %d contract ", flag(o.ThrownIn), o.Declarer)
	str(contract)
	b.WriteString(" trump ")
	str(trump)
	fmt.Fprintf(&b, " tout %d declarer_won %d draw %d pot_before %d pot_after %d\n", flag(o.Tout), flag(o.DeclarerWon),
		flag(o.Draw), o.PotBefore, o.PotAfter)
	for s := 0; s < players; s++ {
		fmt.Fprintf(&b, "seat %d points %d tricks %d payoff %d\n", s, o.Points[s], o.Tricks[s], o.Payoff[s])
	}
	results := slices.Clone(rec.Results)
	slices.SortStableFunc(results, func(a, b domain.SeatResult) int { return cmp.Compare(a.Seat, b.Seat) })
	for _, r := range results {
		fmt.Fprintf(&b, "result %d bot ", r.Seat)
		str(r.Bot)
		fmt.Fprintf(&b, " payoff %d points %d tricks %d declarer %d\n", r.Payoff, r.Points, r.Tricks, flag(r.Declarer))
	}
	fmt.Fprintf(&b, "started_us %d duration_us %d\nsent %s\n", rec.Started.UnixMicro(), rec.Duration.Microseconds(),
		hex.EncodeToString(sentDigest))
	return b.String()
}

// BenchmarkText makes the canonical text of a real deal, as the store does for every deal it
// stores.
func BenchmarkText(b *testing.B) {
	m, recs := replaytest.Play(b, "modern", 1)
	digest := domain.SentDigest(recs[0].Decisions)
	var buf []byte
	for b.Loop() {
		buf = dealchain.AppendText(buf[:0], &recs[0], digest[:], m.Spec.Rules.Players)
	}
	b.ReportMetric(float64(len(buf)), "bytes/text")
}
