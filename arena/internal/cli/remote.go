package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"go.uber.org/zap"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"

	"github.com/tapparena/tapp/arena/internal/app"
	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/protoconv"
	"github.com/tapparena/tapp/arena/internal/server"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// remoteMatch starts a match on a running arena through its admin API, among bots connected
// to it, follows it to its end and prints the result table.
func (m *Main) remoteMatch(ctx context.Context, addr string, tlsFlags *clientTLS, spec domain.MatchSpec, asJSON bool) error {
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
	start, err := admin.StartMatch(ctx, &tappv1.StartMatchRequest{
		Bots: spec.Bots, Rules: spec.Rules.String(), Deals: int32(spec.Deals), Seed: spec.Seed,
		Duplicate: spec.Duplicate, DealsText: spec.DealsText, TimeControl: protoconv.TimeControlToProto(spec.TimeControl),
		Format: spec.Format, Rounds: int32(spec.Rounds),
	})
	if err != nil {
		return fmt.Errorf("starting the match on %s: %w", addr, err)
	}
	id := start.GetMatchId()
	m.Log.Info("match started", zap.String("match", id), zap.String("arena", addr))
	var progress func(int)
	for {
		got, err := admin.GetMatch(ctx, &tappv1.GetMatchRequest{MatchId: id})
		if err != nil {
			return fmt.Errorf("following match %s: %w", id, err)
		}
		sum := got.GetMatch()
		if progress == nil {
			progress = m.progress(int(sum.GetDealsPlanned()), "deals")
		}
		progress(int(sum.GetDealsPlayed()))
		if sum.GetStatus() != string(domain.MatchRunning) {
			progress(-1)
			return m.printRemote(spec, got, asJSON)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("stopped following match %s (it goes on in the arena): %w", id, ctx.Err())
		case <-time.After(250 * time.Millisecond):
		}
	}
}

func (m *Main) printRemote(spec domain.MatchSpec, got *tappv1.GetMatchResponse, asJSON bool) error {
	var rows []domain.ResultRow
	for _, d := range got.GetDeals() {
		st := d.GetSettlement()
		for seat, bot := range d.GetSeating() {
			rows = append(rows, domain.ResultRow{Deal: int(d.GetDealNumber()), SeatResult: domain.SeatResult{
				Bot: bot, Payoff: int(st.GetPayoff()[seat]), Points: int(st.GetPoints()[seat]),
				Declarer: int(st.GetDeclarer()) == seat,
			}})
		}
	}
	sum := got.GetMatch()
	table := app.ResultLines(spec, rows)
	if asJSON {
		enc := json.NewEncoder(m.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(map[string]any{"match": sum.GetMatchId(), "status": sum.GetStatus(), "rules": sum.GetRules(),
			"deals": sum.GetDealsPlayed(), "forfeited": sum.GetForfeited(), "bots": table})
	}
	fmt.Fprintf(m.Stdout, "match %s — %s, %s, %d deals\n\n", sum.GetMatchId(), sum.GetRules(), sum.GetStatus(), sum.GetDealsPlayed())
	printResultTable(m.Stdout, table, unit(spec.Rules))
	if len(sum.GetForfeited()) > 0 {
		fmt.Fprintf(m.Stdout, "\nforfeited: %v\n", sum.GetForfeited())
	}
	return nil
}
