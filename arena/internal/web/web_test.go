package web

import (
	"context"
	"net"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/status"

	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
	viewv1 "github.com/tapparena/tapp/proto/tapp/view/v1"
)

func TestRequiresViewerTokenBeyondLoopback(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		addr string
		want bool
	}{
		{"127.0.0.1:8080", false},
		{"localhost:8080", false},
		{"[::1]:8080", false},
		{"0.0.0.0:8080", true},
		{":8080", true},
		{"192.0.2.7:8080", true},
		{"example.org:80", true},
		{"no port", true},
	} {
		if got := RequiresViewerToken(tc.addr); got != tc.want {
			t.Errorf("RequiresViewerToken(%q) = %v, want %v", tc.addr, got, tc.want)
		}
	}
}

func TestReadAccess(t *testing.T) {
	t.Parallel()
	view := &grpc.UnaryServerInfo{FullMethod: "/tapp.view.v1.ViewService/GetLeaderboard"}
	admin := &grpc.UnaryServerInfo{FullMethod: "/tapp.v1.AdminService/ListBots"}
	call := func(token, from, bearer string, info *grpc.UnaryServerInfo) codes.Code {
		ctx := peer.NewContext(context.Background(), &peer.Peer{Addr: addr(from)})
		if bearer != "" {
			ctx = metadata.NewIncomingContext(ctx, metadata.Pairs("authorization", "Bearer "+bearer))
		}
		_, err := readAccess(token, "")(ctx, nil, info, func(context.Context, any) (any, error) { return "ok", nil })
		return status.Code(err)
	}
	for _, tc := range []struct {
		name                string
		token, from, bearer string
		info                *grpc.UnaryServerInfo
		want                codes.Code
	}{
		{"loopback, no token configured", "", "127.0.0.1:5000", "", view, codes.OK},
		{"another host, no token configured", "", "192.0.2.1:5000", "", view, codes.PermissionDenied},
		{"token configured, none sent", "s3cret", "127.0.0.1:5000", "", view, codes.Unauthenticated},
		{"token configured, a wrong one sent", "s3cret", "192.0.2.1:5000", "guess", view, codes.Unauthenticated},
		{"token configured and sent", "s3cret", "192.0.2.1:5000", "s3cret", view, codes.OK},
		{"the admin service checks its own token", "", "192.0.2.1:5000", "", admin, codes.OK},
	} {
		if got := call(tc.token, tc.from, tc.bearer, tc.info); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

type addr string

func (a addr) Network() string { return "tcp" }
func (a addr) String() string  { return string(a) }

var _ net.Addr = addr("")

// fakeMatches is a match service with one running match whose public events the test sends.
type fakeMatches struct {
	events chan *tappv1.WatchMatchResponse
}

func (f *fakeMatches) Running() []string { return []string{"m1"} }

func (f *fakeMatches) Watch(ctx context.Context, matchID string, send func(*tappv1.WatchMatchResponse) error) error {
	for {
		select {
		case <-ctx.Done():
			return nil
		case msg, ok := <-f.events:
			if !ok {
				return nil
			}
			if err := send(msg); err != nil {
				return err
			}
		}
	}
}

func event(deal int32, kind tappv1.EventKind, card string) *tappv1.WatchMatchResponse {
	return &tappv1.WatchMatchResponse{DealNumber: deal, Event: &tappv1.GameEvent{Index: -1, Kind: kind, Card: card}}
}

func TestLiveNumbersEachDealsEventsFromItsStart(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	src := &fakeMatches{events: make(chan *tappv1.WatchMatchResponse)}
	live := NewLive(ctx, src)
	var resp viewv1.GetLiveResponse
	if err := live.Fill(ctx, "m1", 0, &resp); err != nil { // starts watching
		t.Fatal(err)
	}
	src.events <- event(4, tappv1.EventKind_EVENT_KIND_CARD, "HA") // deal 4 was under way: left out
	src.events <- event(5, tappv1.EventKind_EVENT_KIND_DEALT, "")
	src.events <- event(5, tappv1.EventKind_EVENT_KIND_BID, "")
	src.events <- event(5, tappv1.EventKind_EVENT_KIND_CARD, "C7")
	src.events <- event(5, tappv1.EventKind_EVENT_KIND_CARD, "C8") // the watcher has taken the 3rd when it takes this one
	var got viewv1.GetLiveResponse
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		got = viewv1.GetLiveResponse{}
		if err := live.Fill(ctx, "m1", 0, &got); err != nil {
			t.Fatal(err)
		}
		if len(got.Events) >= 3 {
			break
		}
	}
	if len(got.Deals) != 1 || got.Deals[0].DealNumber != 5 {
		t.Fatalf("live deals = %v, want deal 5 only (deal 4 was joined midway)", got.Deals)
	}
	for i, ev := range got.Events[:3] {
		if ev.GetEvent().GetIndex() != int32(i) || ev.GetSeq() != int64(i+1) {
			t.Errorf("event %d: index %d, seq %d; want index %d, seq %d", i, ev.GetEvent().GetIndex(), ev.GetSeq(), i, i+1)
		}
	}
	var later viewv1.GetLiveResponse
	if err := live.Fill(ctx, "m1", 2, &later); err != nil {
		t.Fatal(err)
	}
	for _, ev := range later.Events {
		if ev.GetSeq() <= 2 {
			t.Errorf("asked for events after 2, got seq %d", ev.GetSeq())
		}
	}
}

// The league admin service needs the admin token on every call, from anywhere.
func TestLeagueAdminNeedsTheAdminToken(t *testing.T) {
	t.Parallel()
	info := &grpc.UnaryServerInfo{FullMethod: "/tapp.view.v1.LeagueAdminService/SetLeaguePaused"}
	call := func(admin, bearer string) codes.Code {
		ctx := peer.NewContext(context.Background(), &peer.Peer{Addr: addr("127.0.0.1:5000")})
		if bearer != "" {
			ctx = metadata.NewIncomingContext(ctx, metadata.Pairs("authorization", "Bearer "+bearer))
		}
		_, err := readAccess("", admin)(ctx, nil, info, func(context.Context, any) (any, error) { return "ok", nil })
		return status.Code(err)
	}
	for _, tc := range []struct {
		name, admin, bearer string
		want                codes.Code
	}{
		{"no admin token configured", "", "", codes.Unauthenticated},
		{"none sent, from loopback", "adm1n-token", "", codes.Unauthenticated},
		{"a wrong one", "adm1n-token", "guess", codes.Unauthenticated},
		{"the admin token", "adm1n-token", "adm1n-token", codes.OK},
	} {
		if got := call(tc.admin, tc.bearer); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// The league's rate is measured over the last minute of polls, not between two of them: a
// burst of deals stored in one commit does not make it jump.
func TestLeagueRateIsSteady(t *testing.T) {
	t.Parallel()
	v := NewView(nil, nil, nil)
	now := time.Unix(1_000_000, 0)
	v.now = func() time.Time { return now }
	deals := 0
	var rates []float64
	for i := range 120 { // two minutes of polls every second: 10 deals/s, stored in bursts of 50
		if i%5 == 4 {
			deals += 50
		}
		r, window := v.rate("L", deals)
		if i < 5 && window != 0 {
			t.Errorf("poll %d: a rate over %v; want none before 5 s", i, window)
		}
		if i >= 60 {
			rates = append(rates, r)
		}
		now = now.Add(time.Second)
	}
	for i, r := range rates {
		if r < 9 || r > 11 {
			t.Errorf("second %d: %.1f deals/s, want about 10 over the last minute", 60+i, r)
		}
	}
	// A league started afresh (fewer deals) starts a new window.
	if r, window := v.rate("L", 3); r != 0 || window != 0 {
		t.Errorf("after the deals went down: %v over %v, want a new window", r, window)
	}
}
