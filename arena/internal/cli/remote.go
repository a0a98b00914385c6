package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"go.uber.org/zap"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/tapparena/tapp/arena/internal/app"
	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/notify"
	"github.com/tapparena/tapp/arena/internal/protoconv"
	"github.com/tapparena/tapp/arena/internal/server"
	"github.com/tapparena/tapp/bots/sdk"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// Following a match on a running arena: a failed poll is tried again every followRetry, up
// to followTries times in a row (the arena may be restarting: it resumes its matches), and a
// TLS mistake, which does not mend, connectTries times.
const (
	followRetry  = 2 * time.Second
	followTries  = 90
	connectTries = 3
)

// remoteMatch starts a match on a running arena through its admin API, among bots connected
// to it, follows it to its end (across a restart of the arena, which resumes it) and prints
// the result table and how to replay it.
func (m *Main) remoteMatch(ctx context.Context, addr string, tlsFlags *clientTLS, spec domain.MatchSpec, asJSON bool, notifyTo []string) error {
	token := m.Getenv("TAPP_ADMIN_TOKEN")
	if token == "" {
		return usagef("--arena needs the arena's admin token in TAPP_ADMIN_TOKEN")
	}
	if err := server.CheckToken("TAPP_ADMIN_TOKEN", token); err != nil {
		return usagef("%v", err)
	}
	creds, err := tlsFlags.credentials()
	if err != nil {
		return err
	}
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(creds))
	if err != nil {
		return err
	}
	defer conn.Close()
	admin := tappv1.NewAdminServiceClient(conn)
	ctx = metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+token)
	req := &tappv1.StartMatchRequest{
		Bots: spec.Bots, Rules: spec.Rules.String(), Deals: int32(spec.Deals), Seed: spec.Seed,
		Duplicate: spec.Duplicate, DealsText: spec.DealsText, TimeControl: protoconv.TimeControlToProto(spec.TimeControl),
		Format: spec.Format, Rounds: int32(spec.Rounds),
	}
	var start *tappv1.StartMatchResponse
	for try := 1; ; try++ {
		if start, err = admin.StartMatch(ctx, req); err == nil {
			break
		}
		p := sdk.ConnectProblemOf(err)
		switch {
		case p != sdk.NoConnectProblem && try >= connectTries:
			return fmt.Errorf("starting the match on %s: %s (gave up after %d tries: %w)", addr, p.Fix(cliTLSFlags), try, err)
		case p == sdk.NoConnectProblem && (status.Code(err) != codes.Unavailable || try >= connectTries):
			if status.Code(err) == codes.Unavailable {
				return fmt.Errorf("starting the match on %s: the arena cannot be reached (gave up after %d tries; is `tapp serve` running there?): %w", addr, try, err)
			}
			return fmt.Errorf("starting the match on %s: %w", addr, err)
		}
		if err := sleepCtx(ctx, time.Second); err != nil {
			return err
		}
	}
	id := start.GetMatchId()
	m.Log.Info("match started", zap.String("match", id), zap.String("arena", addr))
	if err := m.followRemote(ctx, admin, addr, id); err != nil {
		return err
	}
	got, err := allDeals(ctx, admin, id)
	if err != nil {
		return fmt.Errorf("reading the deals of match %s: %w", id, err)
	}
	sum := got.GetMatch()
	m.notify(ctx, notifyTo, notify.Summary{Kind: notify.Match, Name: id, Status: sum.GetStatus(), Deals: int(sum.GetDealsPlayed()),
		Next: []string{replayHint(id)}, Result: remoteJSON(spec, got)})
	if err := m.printRemote(spec, got, asJSON); err != nil {
		return err
	}
	if !asJSON {
		fmt.Fprintf(m.Stdout, "\nreplay a deal on the arena's database: %s\n", replayHint(id))
	}
	return nil
}

// replayHint is how to replay a deal of a match an arena played: on the arena's store, which
// only its operator names.
func replayHint(id string) string {
	return "tapp replay " + id + " --deal 0 --full --db ARENA_DB (the --db of tapp serve), or its dashboard's #/match/" + id
}

// followRemote polls the match until it is no longer running, showing its progress; an arena
// that restarts is waited for (it resumes its running matches), up to followTries failed polls
// in a row.
func (m *Main) followRemote(ctx context.Context, admin tappv1.AdminServiceClient, addr, id string) error {
	var progress func(int)
	failed := 0
	for {
		got, err := admin.GetMatch(ctx, &tappv1.GetMatchRequest{MatchId: id, Limit: 1}) // the summary is what a poll needs
		switch {
		case ctx.Err() != nil:
			if progress != nil {
				progress(-1)
			}
			return fmt.Errorf("stopped following match %s (it goes on in the arena; tapp matches --db ARENA_DB shows it): %w", id, ctx.Err())
		case err != nil && status.Code(err) == codes.Unavailable:
			failed++
			if failed == 1 {
				m.Log.Warn("the arena does not answer; waiting for it (a restarted arena resumes the match)",
					zap.String("arena", addr), zap.Error(err), zap.Int("tries", followTries), zap.Duration("every", followRetry))
			}
			if failed >= followTries {
				if progress != nil {
					progress(-1)
				}
				return fmt.Errorf("following match %s: the arena at %s did not answer %d tries over %s: %w",
					id, addr, failed, time.Duration(failed)*followRetry, err)
			}
			if err := sleepCtx(ctx, followRetry); err != nil {
				continue
			}
			continue
		case err != nil:
			if progress != nil {
				progress(-1)
			}
			return fmt.Errorf("following match %s: %w", id, err)
		}
		if failed > 0 {
			m.Log.Info("the arena answers again; following the match", zap.String("match", id))
			failed = 0
		}
		sum := got.GetMatch()
		if progress == nil {
			progress = m.progress(int(sum.GetDealsPlanned()), "deals")
		}
		progress(int(sum.GetDealsPlayed()))
		if sum.GetStatus() != string(domain.MatchRunning) {
			progress(-1)
			return nil
		}
		_ = sleepCtx(ctx, 250*time.Millisecond)
	}
}

// allDeals is the match's summary with every stored deal, read a page at a time.
func allDeals(ctx context.Context, admin tappv1.AdminServiceClient, id string) (*tappv1.GetMatchResponse, error) {
	var all *tappv1.GetMatchResponse
	for first := int32(0); ; {
		page, err := admin.GetMatch(ctx, &tappv1.GetMatchRequest{MatchId: id, FirstDeal: first, Limit: 1000})
		if err != nil {
			return nil, err
		}
		if all == nil {
			all = page
		} else {
			all.Deals = append(all.Deals, page.GetDeals()...)
		}
		if !page.GetMore() {
			all.More, all.NextDeal = false, 0
			return all, nil
		}
		first = page.GetNextDeal()
	}
}

// sleepCtx waits d, or until ctx ends (its error).
func sleepCtx(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}

// remoteRows are a remote match's results, as rows.
func remoteRows(got *tappv1.GetMatchResponse) []domain.ResultRow {
	var rows []domain.ResultRow
	for _, d := range got.GetDeals() {
		st := d.GetSettlement()
		for seat, bot := range d.GetSeating() {
			rows = append(rows, domain.ResultRow{Deal: int(d.GetDealNumber()), Group: int(d.GetGroup()), SeatResult: domain.SeatResult{
				Bot: bot, Payoff: int(st.GetPayoff()[seat]), Points: int(st.GetPoints()[seat]),
				Declarer: int(st.GetDeclarer()) == seat,
			}})
		}
	}
	return rows
}

// remoteJSON is what `tapp match --arena --json` prints.
func remoteJSON(spec domain.MatchSpec, got *tappv1.GetMatchResponse) map[string]any {
	sum := got.GetMatch()
	return map[string]any{"match": sum.GetMatchId(), "status": sum.GetStatus(), "rules": sum.GetRules(),
		"deals": sum.GetDealsPlayed(), "forfeited": sum.GetForfeited(), "bots": app.ResultLines(spec, remoteRows(got))}
}

func (m *Main) printRemote(spec domain.MatchSpec, got *tappv1.GetMatchResponse, asJSON bool) error {
	sum := got.GetMatch()
	if asJSON {
		enc := json.NewEncoder(m.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(remoteJSON(spec, got))
	}
	fmt.Fprintf(m.Stdout, "match %s — %s, %s, %d deals\n\n", sum.GetMatchId(), sum.GetRules(), sum.GetStatus(), sum.GetDealsPlayed())
	printResultTable(m.Stdout, app.ResultLines(spec, remoteRows(got)), unit(spec.Rules))
	if len(sum.GetForfeited()) > 0 {
		fmt.Fprintf(m.Stdout, "\nforfeited: %v\n", sum.GetForfeited())
	}
	return nil
}
