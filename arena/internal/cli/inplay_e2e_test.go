package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/store"
	"github.com/tapparena/tapp/engine"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
	viewv1 "github.com/tapparena/tapp/proto/tapp/view/v1"
)

// A duplicate match played through a running arena, its dashboard polled all the while: every
// view endpoint (the match list, the match, every stored deal's replay from every view, the
// live feed) and the CLI's replay and export. A card shown of a deal while another deal of
// its group — dealt the same cards — is not finished yet is a leak, whatever the view; a card
// a seat's view shows must be in that seat's information set (engine.Observe) at that step,
// and a live event's cards in the public's. The rule must also open what it may: a deal
// whose group is stored is served.
func TestE2ENoViewShowsACardStillInPlay(t *testing.T) {
	t.Parallel()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// One table at a time, so that a poll finds groups part-stored.
	a := startServeWith(t, "--http", "127.0.0.1:0", "--parallel", "1")
	bots := []string{"slow1", "slow2", "slow3"}
	for _, name := range bots {
		a.startBot(name, []string{"TAPP_E2E_BOT=slow", "TAPP_BOT_NAME=" + name}, self, "-test.run=^$")
	}
	a.waitConnected(bots...)
	base := strings.TrimSuffix(a.dashboardURL(), "/")
	const groups, seatings = 4, 6
	start, err := a.admin.StartMatch(a.ctx(), &tappv1.StartMatchRequest{Bots: bots, Rules: "modern", Deals: groups, Seed: 17,
		Duplicate: true, TimeControl: &tappv1.TimeControl{PerDecision: durationpb.New(5 * time.Second), Overage: durationpb.New(10 * time.Second), MaxStrikes: 3}})
	if err != nil {
		t.Fatal(err)
	}
	id := start.GetMatchId()
	st, err := store.Open(context.Background(), a.db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	m, err := st.GetMatch(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	v := &viewPoller{t: t, base: base}
	var (
		lives       []*viewv1.LiveEvent // every live event, judged at the end
		checked     = 0                 // things shown and checked
		refused     = 0                 // replays refused while in play
		served      = 0                 // replays served
		inPlay      = 0                 // match lines withheld
		adminInPlay = 0                 // the admin API's deals withheld
		liveSeq     int64
		finished    bool
		cliDone     bool
	)
	for poll := 0; !finished; poll++ {
		if poll > 2000 {
			t.Fatal("the match did not finish")
		}
		before, err := st.DealNumbers(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		var shown []shownCard
		var ms viewv1.ListMatchesResponse
		v.call("ListMatches", &viewv1.ListMatchesRequest{}, &ms)
		var got viewv1.GetMatchResponse
		v.call("GetMatch", &viewv1.GetMatchRequest{MatchId: id}, &got)
		finished = got.GetMatch().GetStatus() != "running"
		for _, d := range got.GetDeals() {
			if d.GetInPlay() {
				inPlay++
				continue
			}
			shown = append(shown, shownCard{deal: int(d.GetDealNumber()), what: "its settlement on the match page"})
		}
		// The admin API's match page: a deal in play is listed without its cards or settlement.
		adm, err := a.admin.GetMatch(a.ctx(), &tappv1.GetMatchRequest{MatchId: id})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range adm.GetDeals() {
			switch {
			case d.GetInPlay() && (d.GetDeal() != "" || d.GetSettlement() != nil):
				t.Errorf("deal %d: the admin API lists it in play with its cards or settlement", d.GetDealNumber())
			case d.GetInPlay():
				adminInPlay++
			default:
				shown = append(shown, shownCard{deal: int(d.GetDealNumber()), what: "its cards in the admin API's GetMatch"})
			}
		}
		var live viewv1.GetLiveResponse
		v.call("GetLive", &viewv1.GetLiveRequest{MatchId: id, AfterSeq: liveSeq}, &live)
		liveSeq = live.GetLastSeq()
		for _, ev := range live.GetEvents() {
			shown = append(shown, shownCard{deal: int(ev.GetDealNumber()), what: "a live event", live: ev})
		}
		// Every stored deal of the groups in play (and the first deal) from every view.
		asked := map[int]bool{0: true}
		for _, n := range before {
			if len(before) < groups*seatings && n/seatings >= before[len(before)-1]/seatings-1 {
				asked[n] = true
			}
		}
		for n := range asked {
			for _, view := range []string{"full", "public", "0", "1", "2"} {
				var r viewv1.GetReplayResponse
				code := v.try("GetReplay", &viewv1.GetReplayRequest{MatchId: id, DealNumber: int32(n), View: view}, &r)
				switch code {
				case "":
					served++
					shown = append(shown, shownCard{deal: n, what: "its replay from view " + view, view: view, replay: &r})
				case "failed_precondition":
					refused++
				case "not_found": // not stored yet
				default:
					t.Fatalf("GetReplay(%d, %s): %s", n, view, code)
				}
			}
		}
		after, err := st.DealNumbers(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range shown {
			checkGroupStored(t, s, after, seatings)
			switch {
			case s.live != nil:
				lives = append(lives, s.live) // judged once its deal is stored
			case s.replay != nil && s.view != "full":
				rec, err := st.Deal(ctx, id, s.deal)
				if err != nil {
					t.Fatal(err)
				}
				checkSeatReplay(t, m, rec, s.view, s.replay)
			}
		}
		checked += len(shown)
		// Once, while a group is part-stored: the CLI refuses the deal and its export leaves it out.
		if !cliDone && len(after) > 0 && len(after)%seatings != 0 && !finished {
			cliDone = checkCLIWithholds(t, a.db, id, after[len(after)-1], seatings)
		}
		time.Sleep(time.Duration(20+rand.IntN(40)) * time.Millisecond)
	}

	// The live events, now that every deal is stored.
	for _, ev := range lives {
		rec, err := st.Deal(ctx, id, int(ev.GetDealNumber()))
		if err != nil {
			t.Fatalf("deal %d: %v", ev.GetDealNumber(), err)
		}
		checkLiveEvent(t, m, rec, ev)
	}
	liveShown := len(lives)
	if refused == 0 || inPlay == 0 || adminInPlay == 0 || served == 0 || liveShown == 0 {
		t.Fatalf("the test saw %d replays refused, %d match lines withheld (%d by the admin API), %d replays served, %d live events: "+
			"it must see each of them to test the rule", refused, inPlay, adminInPlay, served, liveShown)
	}
	if !cliDone {
		t.Error("no poll found a group part-stored to try the CLI on")
	}
	t.Logf("%d shown items checked: %d replays refused while in play, %d served, %d match lines withheld (%d by the admin API), %d live events",
		checked, refused, served, inPlay, adminInPlay, liveShown)
}

// shownCard is something a view showed of a deal.
type shownCard struct {
	deal   int
	what   string
	view   string
	replay *viewv1.GetReplayResponse
	live   *viewv1.LiveEvent
}

// checkGroupStored fails the test if something of a deal was shown while another deal of its
// group was not stored yet once the poll was over (then it was in play when it was shown).
func checkGroupStored(t *testing.T, s shownCard, after []int, seatings int) {
	t.Helper()
	group := s.deal / seatings
	for k := group * seatings; k < (group+1)*seatings; k++ {
		if k != s.deal && !slices.Contains(after, k) {
			t.Errorf("deal %d: %s was shown while deal %d of its group, dealt the same cards, was still in play", s.deal, s.what, k)
			return
		}
	}
}

// viewPoller calls the dashboard's view service as the page does: Connect's JSON over HTTP.
type viewPoller struct {
	t    *testing.T
	base string
}

// try calls a method and returns "" or the error's code.
func (v *viewPoller) try(method string, req, resp proto.Message) string {
	v.t.Helper()
	body, err := protojson.Marshal(req)
	if err != nil {
		v.t.Fatal(err)
	}
	hr, err := http.NewRequest(http.MethodPost, v.base+"/tapp.view.v1.ViewService/"+method, bytes.NewReader(body))
	if err != nil {
		v.t.Fatal(err)
	}
	hr.Header.Set("Content-Type", "application/json")
	hr.Header.Set("Connect-Protocol-Version", "1")
	r, err := http.DefaultClient.Do(hr)
	if err != nil {
		v.t.Fatal(err)
	}
	defer r.Body.Close()
	out, err := io.ReadAll(r.Body)
	if err != nil {
		v.t.Fatal(err)
	}
	if r.StatusCode != http.StatusOK {
		var e struct{ Code, Message string }
		if err := json.Unmarshal(out, &e); err != nil || e.Code == "" {
			v.t.Fatalf("%s: HTTP %d %s", method, r.StatusCode, out)
		}
		return e.Code
	}
	if err := (protojson.UnmarshalOptions{DiscardUnknown: true}).Unmarshal(out, resp); err != nil {
		v.t.Fatalf("%s: %v", method, err)
	}
	return ""
}

func (v *viewPoller) call(method string, req, resp proto.Message) {
	v.t.Helper()
	if code := v.try(method, req, resp); code != "" {
		v.t.Fatalf("%s: %s", method, code)
	}
}

// checkCLIWithholds checks, while deal n's group is part-stored, that `tapp replay` refuses
// deal n from every view and that an export leaves it out; false if the group was finished
// meanwhile (try again at the next poll).
func checkCLIWithholds(t *testing.T, db, id string, n, seatings int) bool {
	t.Helper()
	out, err := exec.Command(tappBin, "replay", id, "--deal", fmt.Sprint(n), "--seat", "1", "--no-step", "--db", db).CombinedOutput()
	if err == nil {
		return false // the group finished between the poll and this command
	}
	if !strings.Contains(string(out), "still in play") {
		t.Errorf("tapp replay of deal %d while its group plays: %v\n%s; want a refusal saying its cards are still in play", n, err, out)
	}
	cmd := exec.Command(tappBin, "replay", "export", id, "--db", db)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("tapp replay export: %v\n%s", err, stderr.String())
	}
	for _, line := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		var e struct {
			Deal int `json:"deal"`
		}
		if line == "" {
			continue
		}
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("export line %q: %v", line, err)
		}
		if e.Deal/seatings == n/seatings {
			// The group may have finished while the export ran: then every deal of it is in.
			if got, _ := exec.Command(tappBin, "replay", id, "--deal", fmt.Sprint(n), "--no-step", "--db", db).CombinedOutput(); strings.Contains(string(got), "still in play") {
				t.Errorf("the export has deal %d of a group still in play", e.Deal)
			}
		}
	}
	if !strings.Contains(stderr.String(), "left out") {
		t.Logf("export while deal %d's group plays said nothing left out (the group finished meanwhile?): %s", n, stderr.String())
	}
	return true
}

// checkSeatReplay checks that every card a seat's (or the public's) replay shows at each step
// is in that view's information set then, as the engine computes it.
func checkSeatReplay(t *testing.T, m *domain.Match, rec *domain.DealRecord, view string, r *viewv1.GetReplayResponse) {
	t.Helper()
	seat := engine.NoSeat
	if view != "public" {
		n, err := strconv.Atoi(view)
		if err != nil {
			t.Fatal(err)
		}
		seat = engine.Seat(n)
	}
	st, err := engine.NewState(m.Spec.Rules, rec.Deal, rec.Options)
	if err != nil {
		t.Fatal(err)
	}
	for k, step := range r.GetSteps() {
		if len(step.GetHands()) > 0 || len(step.GetTapp()) > 0 || len(step.GetDiscards()) > 0 {
			t.Errorf("deal %d step %d: view %s shows the full view's hands", rec.Number, k, view)
		}
		known := engineCards(st.Observe(seat))
		if k < len(rec.Moves) {
			if err := st.Apply(rec.Moves[k].Action); err != nil {
				t.Fatal(err)
			}
			known |= engineCards(st.Observe(seat)) // the events after the step show its move
		}
		for _, c := range protoCards(step) {
			if !known.Has(c) {
				t.Errorf("deal %d step %d: view %s shows %s, which it did not know then", rec.Number, k, view, c)
			}
		}
	}
}

// checkLiveEvent checks that a live event of a deal shows only cards the public knew once
// that event had happened.
func checkLiveEvent(t *testing.T, m *domain.Match, rec *domain.DealRecord, ev *viewv1.LiveEvent) {
	t.Helper()
	public := publicLog(t, m, rec)
	i := int(ev.GetEvent().GetIndex())
	if i < 0 || i >= len(public) {
		t.Errorf("deal %d: live event %d, but the deal has %d public events", rec.Number, i, len(public))
		return
	}
	known := engine.CardSet(0)
	for _, e := range public[:i+1] {
		known |= engineCards(e)
	}
	if public[i].Kind == engine.EvSettled {
		known = ^engine.CardSet(0) // the reveal, once the deal is over
	}
	for _, c := range protoCards(ev) {
		if !known.Has(c) {
			t.Errorf("deal %d, live event %d (%s): shows %s, which the public did not know", rec.Number, i, ev.GetEvent().GetKind(), c)
		}
	}
}

// engineCards collects every card in an engine value (a card, a card set, an action, and
// anything holding them), by reflection: what a view derived from it could show.
func engineCards(x any) engine.CardSet {
	var out engine.CardSet
	var walk func(v reflect.Value)
	cardType, setType := reflect.TypeOf(engine.Card(0)), reflect.TypeOf(engine.CardSet(0))
	walk = func(v reflect.Value) {
		switch {
		case v.Type() == cardType:
			if c := v.Interface().(engine.Card); c.Valid() {
				out = out.With(c)
			}
			return
		case v.Type() == setType:
			out |= v.Interface().(engine.CardSet)
			return
		}
		switch v.Kind() {
		case reflect.Pointer, reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				walk(v.Field(i))
			}
		case reflect.Slice, reflect.Array:
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i))
			}
		}
	}
	walk(reflect.ValueOf(x))
	return out
}

// protoCards collects every string of a message that names a card ("HA", "S7"): whatever field
// it is in, a view that shows it shows that card.
func protoCards(m proto.Message) []engine.Card {
	var out []engine.Card
	var walk func(m protoreflect.Message)
	one := func(fd protoreflect.FieldDescriptor, v protoreflect.Value) {
		switch fd.Kind() {
		case protoreflect.MessageKind:
			walk(v.Message())
		case protoreflect.StringKind:
			for _, part := range strings.FieldsFunc(v.String(), func(r rune) bool { return r == ' ' || r == ':' || r == ',' }) {
				if c, err := engine.ParseCard(part); err == nil && c.Valid() {
					out = append(out, c)
				}
			}
		}
	}
	walk = func(m protoreflect.Message) {
		m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
			switch {
			case fd.IsList():
				for i := 0; i < v.List().Len(); i++ {
					one(fd, v.List().Get(i))
				}
			case fd.IsMap():
			default:
				one(fd, v)
			}
			return true
		})
	}
	walk(m.ProtoReflect())
	return out
}

// runSlowBot plays legal actions at random, a few milliseconds per decision, so that a test
// can watch a match while it runs.
func runSlowBot() int {
	conn, err := grpc.NewClient(os.Getenv("TAPP_ARENA"), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return 1
	}
	ctx := metadata.AppendToOutgoingContext(context.Background(), "authorization", "Bearer "+os.Getenv("TAPP_TOKEN"))
	stream, err := tappv1.NewBotServiceClient(conn).Connect(ctx)
	if err != nil {
		return 1
	}
	if err := stream.Send(&tappv1.ConnectRequest{Message: &tappv1.ConnectRequest_Hello{Hello: &tappv1.Hello{Name: os.Getenv("TAPP_BOT_NAME"), Capacity: 8}}}); err != nil {
		return 1
	}
	for {
		msg, err := stream.Recv()
		if err != nil {
			return 0
		}
		req := msg.GetDecisionRequest()
		if req == nil || len(req.GetLegal()) == 0 {
			continue
		}
		time.Sleep(3 * time.Millisecond)
		legal := req.GetLegal()
		_ = stream.Send(&tappv1.ConnectRequest{Message: &tappv1.ConnectRequest_Answer{Answer: &tappv1.Answer{
			GameId: req.GetGameId(), RequestId: req.GetRequestId(), Action: legal[rand.IntN(len(legal))]}}})
	}
}
