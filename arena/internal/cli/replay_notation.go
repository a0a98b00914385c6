package cli

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/tapparena/tapp/arena/internal/replay"
	"github.com/tapparena/tapp/arena/internal/store"
	"github.com/tapparena/tapp/engine"
)

// exportNotation writes a match's deals as TPN (docs/notation.md), redacted to one seat's view
// when --seat or --bot is given.
func (m *Main) exportNotation(ctx context.Context, st *store.Store, matchID string, only *int, w io.Writer, json bool, vf viewFlags) (int, int, error) {
	o := replay.NotationOptions{JSON: json, Seat: engine.NoSeat, Bot: vf.bot}
	if vf.seat != "" {
		am, err := st.GetMatch(ctx, matchID)
		if err != nil {
			return 0, 0, err
		}
		if o.Seat, err = parseSeat(vf.seat, am.Spec.Rules.Players); err != nil {
			return 0, 0, err
		}
	}
	return replay.ExportNotation(ctx, st, matchID, only, w, o)
}

// replayImport stores the deals of a TPN file or a JSON Lines export as matches.
func (m *Main) replayImport(ctx context.Context, args []string) error {
	fs := m.flags("replay import", "FILE.tpn|FILE.jsonl [flags]")
	matchID := fs.String("match", "", "store the file's one match under this id")
	dsn := m.dbFlag(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("usage: tapp replay import FILE.tpn|FILE.jsonl [--match ID] [--db DSN]")
	}
	file := pos[0]
	if _, err := os.Stat(file); err != nil {
		return fmt.Errorf("%s: no such file", file)
	}
	st, err := m.openStore(ctx, *dsn)
	if err != nil {
		return err
	}
	defer st.Close()
	open := func() (io.ReadCloser, error) { return os.Open(file) }
	done, rep, err := replay.Import(ctx, st, open, replay.ImportOptions{MatchID: *matchID})
	if rep != nil && !rep.OK() {
		for _, p := range rep.Problems {
			fmt.Fprintln(m.Stdout, p)
		}
	}
	for _, im := range done {
		from := ""
		if im.From != "" && im.From != im.ID {
			from = " (recorded as " + im.From + ")"
		}
		fmt.Fprintf(m.Stdout, "imported match %s%s: %d deal(s); open with: tapp replay %s%s\n", im.ID, from, im.Deals, im.ID, m.suggestDB(*dsn))
		for _, note := range im.Notes {
			fmt.Fprintf(m.Stdout, "  note: %s\n", note)
		}
	}
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	return nil
}
