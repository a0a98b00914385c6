package server_test

import (
	"context"
	"fmt"
	"net"
	"path/filepath"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/match"
	"github.com/tapparena/tapp/arena/internal/server"
	"github.com/tapparena/tapp/arena/internal/store"
	"github.com/tapparena/tapp/bots"
	"github.com/tapparena/tapp/bots/random"
	"github.com/tapparena/tapp/bots/sdk"
	"github.com/tapparena/tapp/engine"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// noStarter stands in for the match service: the match calls under test only read the store.
type noStarter struct{}

func (noStarter) StartMatch(context.Context, domain.MatchSpec) (string, error) {
	return "", fmt.Errorf("not in this test")
}
func (noStarter) Running() []string { return nil }
func (noStarter) Watch(context.Context, string, func(match.Seen) error) error {
	return fmt.Errorf("not in this test")
}

// The admin API reads a match a page at a time: the pages chain by next_deal and together
// hold every stored deal once, in order, each with its duplicate group and settlement; the
// summary's net is the deals' payoffs summed; the list is bounded; a bad page is
// invalid_argument and an unknown match not_found.
func TestAdminAPIReadsAMatchAPageAtATime(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "admin.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := server.New(server.Config{Store: st, AdminToken: testAdminToken, Grace: time.Second})
	srv.SetMatchStarter(noStarter{})
	go func() { _ = srv.Serve(lis) }()
	defer srv.Shutdown(context.Background())
	botCtx, stopBots := context.WithCancel(ctx)
	defer stopBots()
	for i, name := range []string{"a", "b", "c"} {
		srv.AddLaunchToken("token-"+name, name)
		cfg := sdk.Config{Arena: lis.Addr().String(), Token: "token-" + name, Name: name, Capacity: 4}
		go func(b bots.Bot) { _ = sdk.Run(botCtx, cfg, b) }(random.New(uint64(i + 1)))
	}
	runner := &match.Runner{Store: st, Seats: srv, Parallel: 4}
	const groups, seatings = 4, 6
	m, err := runner.Create(ctx, domain.MatchSpec{Rules: engine.DefaultRules(engine.Modern), Bots: []string{"a", "b", "c"},
		Deals: groups, Duplicate: true, Seed: 3, TimeControl: domain.TimeControl{PerDecision: 5 * time.Second, Overage: 10 * time.Second, MaxStrikes: 3}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := runner.Run(ctx, m); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ { // older matches, for the list's bound
		spec := m.Spec
		spec.Duplicate, spec.Deals, spec.Seed = false, 1, uint64(10+i)
		old, err := runner.Create(ctx, spec)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := runner.Run(ctx, old); err != nil {
			t.Fatal(err)
		}
	}

	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	admin := tappv1.NewAdminServiceClient(conn)
	actx := metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+testAdminToken)

	stored, err := st.Deals(ctx, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{}
	for _, d := range stored {
		for _, r := range d.Results {
			want[r.Bot] += int64(r.Payoff)
		}
	}
	var got []*tappv1.DealSummary
	pages := 0
	for first := int32(0); ; pages++ {
		page, err := admin.GetMatch(actx, &tappv1.GetMatchRequest{MatchId: m.ID, FirstDeal: first, Limit: 5})
		if err != nil {
			t.Fatal(err)
		}
		if len(page.GetDeals()) > 5 {
			t.Fatalf("a page of at most 5 has %d deals", len(page.GetDeals()))
		}
		sum := page.GetMatch()
		if sum.GetDealsPlayed() != groups*seatings || sum.GetDealsPlanned() != groups*seatings {
			t.Fatalf("deals played %d of %d, want %d", sum.GetDealsPlayed(), sum.GetDealsPlanned(), groups*seatings)
		}
		for i, b := range sum.GetBots() {
			if sum.GetNet()[i] != want[b] {
				t.Errorf("net of %s: %d, want %d (the deals' payoffs)", b, sum.GetNet()[i], want[b])
			}
		}
		got = append(got, page.GetDeals()...)
		if !page.GetMore() {
			break
		}
		first = page.GetNextDeal()
	}
	if len(got) != len(stored) || pages != (len(stored)+4)/5-1 {
		t.Fatalf("%d deals in %d pages, want %d deals in %d", len(got), pages+1, len(stored), (len(stored)+4)/5)
	}
	for i, d := range got {
		s := &stored[i]
		if int(d.GetDealNumber()) != s.Number || int(d.GetGroup()) != s.Number/seatings || d.GetInPlay() ||
			d.GetDeal() != s.Deal.Format(m.Spec.Rules) || d.GetSettlement() == nil {
			t.Errorf("deal %d listed as number %d, group %d, in play %v, deal %q", s.Number, d.GetDealNumber(), d.GetGroup(), d.GetInPlay(), d.GetDeal())
		}
	}

	list, err := admin.ListMatches(actx, &tappv1.ListMatchesRequest{Limit: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.GetMatches()) != 2 {
		t.Errorf("ListMatches with limit 2 listed %d", len(list.GetMatches()))
	}
	all, err := admin.ListMatches(actx, &tappv1.ListMatchesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(all.GetMatches()) != 4 {
		t.Errorf("ListMatches listed %d of 4 matches", len(all.GetMatches()))
	}
	for _, s := range all.GetMatches() {
		if s.GetMatchId() == m.ID && s.GetDealsPlayed() != groups*seatings {
			t.Errorf("the list says %d deals played, want %d", s.GetDealsPlayed(), groups*seatings)
		}
	}

	for _, bad := range []struct {
		req  *tappv1.GetMatchRequest
		code codes.Code
	}{
		{&tappv1.GetMatchRequest{MatchId: m.ID, FirstDeal: -1}, codes.InvalidArgument},
		{&tappv1.GetMatchRequest{MatchId: m.ID, Limit: -3}, codes.InvalidArgument},
		{&tappv1.GetMatchRequest{MatchId: "no-such-match"}, codes.NotFound},
	} {
		if _, err := admin.GetMatch(actx, bad.req); status.Code(err) != bad.code {
			t.Errorf("GetMatch(%v): %v, want %s", bad.req, err, bad.code)
		}
	}
}
