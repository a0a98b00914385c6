package store

import (
	"bytes"
	"context"
	"testing"

	"github.com/tapparena/tapp/arena/internal/domain"
)

func init() {
	// The benchmarks store the real deals as the referee hands them to the store: with each
	// request marked as built from the engine's state.
	benchPrepare = func(deals []*domain.DealRecord) {
		for _, d := range deals {
			for i := range d.Decisions {
				d.Decisions[i].SentFromState = len(d.Decisions[i].Sent) > 0
			}
		}
	}
}

// fromState is a copy of d with every request marked as the referee's (SentFromState).
func fromState(d *domain.DealRecord) *domain.DealRecord {
	c := *d
	c.Decisions = append([]domain.DecisionRecord(nil), d.Decisions...)
	for i := range c.Decisions {
		c.Decisions[i].SentFromState = len(c.Decisions[i].Sent) > 0
	}
	return &c
}

// The store checks the last of a deal's requests that the referee built from the engine's
// state; if it is not the one the store would build, every request is checked and the odd
// ones are kept verbatim: the deal reads back exactly.
func TestStoreChecksTheRefereesRequests(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		m, deals := quickMatch(t, s, 1)
		d := fromState(asStored(deals[0]))
		last := len(d.Decisions) - 1
		for len(d.Decisions[last].Sent) == 0 {
			last--
		}
		d.Decisions[0].Sent = append(append([]byte(nil), d.Decisions[0].Sent...), 0x08, 0x02)
		d.Decisions[last].Sent = append(append([]byte(nil), d.Decisions[last].Sent...), 0x08, 0x01)
		if err := s.SaveDeal(ctx, d); err != nil {
			t.Fatal(err)
		}
		got, err := s.Deal(ctx, m.ID, d.Number)
		if err != nil {
			t.Fatal(err)
		}
		for i, x := range got.Decisions {
			if !bytes.Equal(x.Sent, d.Decisions[i].Sent) {
				t.Errorf("decision %d: the request read back differs from the one saved", i)
			}
		}
		if v := storedVerbatim(t, s, m.ID, d.Number); v != 2 {
			t.Errorf("%d requests kept verbatim, want 2", v)
		}
	})
}

// A request the referee says it built from the state is trusted when the deal's last one
// checks out; if it was not (a referee that builds requests otherwise than the store), the
// request read back is the store's, and the digest of the requests sent tells: a replay's
// verification reports it (REC-SENT).
func TestDigestTellsATrustedRequestThatWasNot(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		m, deals := quickMatch(t, s, 1)
		d := fromState(asStored(deals[0]))
		d.Decisions[0].Sent = append(append([]byte(nil), d.Decisions[0].Sent...), 0x08, 0x02)
		if err := s.SaveDeal(ctx, d); err != nil {
			t.Fatal(err)
		}
		got, err := s.Deal(ctx, m.ID, d.Number)
		if err != nil {
			t.Fatal(err)
		}
		if want := domain.SentDigest(d.Decisions); !bytes.Equal(got.SentDigest, want[:]) {
			t.Errorf("SentDigest %x, want %x, the digest of the requests saved", got.SentDigest, want)
		}
		if rebuilt := domain.SentDigest(got.Decisions); bytes.Equal(got.SentDigest, rebuilt[:]) {
			t.Error("the requests read back match the digest of the ones saved, though one was not rebuilt as saved")
		}
	})
}
