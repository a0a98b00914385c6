package cli

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"golang.org/x/term"

	"github.com/tapparena/tapp/arena/internal/app"
	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/reask"
	"github.com/tapparena/tapp/arena/internal/replay"
	"github.com/tapparena/tapp/arena/internal/server"
	"github.com/tapparena/tapp/arena/internal/store"
	"github.com/tapparena/tapp/bots"
	"github.com/tapparena/tapp/bots/builtin"
	"github.com/tapparena/tapp/engine"
)

const replayUsage = `tapp replay MATCH|FILE.jsonl [--deal N] [--seat S | --bot NAME | --full | --public] [--decision K]
tapp replay export MATCH [--format jsonl|tpn|tpn-jsonl] [--seat S | --bot NAME] [--deal N] [--out FILE] [--no-sent]
tapp replay ask MATCH|FILE.jsonl --deal N --decision K[,K…] | --seat S  (--bot NAME | --bot-cmd CMD | --listen ADDR)
tapp replay verify MATCH|FILE.jsonl|FILE.tpn [--complete]
tapp replay import FILE.tpn|FILE.jsonl [--match ID]
tapp replay diff MATCH|LEAGUE|FILE.jsonl --bot NAME (--bot-cmd CMD | --builtin KIND)`

// replay dispatches the replay subcommands; without one it steps through a deal.
func (m *Main) replay(ctx context.Context, args []string) error {
	if len(args) > 0 {
		switch args[0] {
		case "export":
			return m.replayExport(ctx, args[1:])
		case "ask":
			return m.replayAsk(ctx, args[1:])
		case "verify":
			return m.replayVerify(ctx, args[1:])
		case "diff":
			return m.replayDiff(ctx, args[1:])
		case "import":
			return m.replayImport(ctx, args[1:])
		}
	}
	return m.replayView(ctx, args)
}

// replaySource is where recorded deals come from (app.Source: a store or a JSON Lines
// export), with the store it opened to close.
type replaySource struct {
	*app.Source
	st *store.Store // nil for a file
}

// openSource opens arg as an export file if such a file exists, else as a match in the store
// (read-only).
func (m *Main) openSource(ctx context.Context, arg, dsn string) (*replaySource, error) {
	return m.openSourceFor(ctx, arg, dsn, m.openExistingStore)
}

// openSourceFor is openSource opening the store with open.
func (m *Main) openSourceFor(ctx context.Context, arg, dsn string, open func(context.Context, string) (*store.Store, error)) (*replaySource, error) {
	if fi, err := os.Stat(arg); err == nil && fi.Mode().IsRegular() {
		f, err := os.Open(arg)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		src, err := app.ReadExport(arg, f)
		if err != nil {
			return nil, err
		}
		return &replaySource{Source: src}, nil
	}
	if strings.HasSuffix(arg, ".jsonl") || strings.HasSuffix(arg, ".tpn") || strings.ContainsRune(arg, os.PathSeparator) {
		return nil, fmt.Errorf("%s: no such file", arg)
	}
	st, err := open(ctx, dsn)
	if err != nil {
		return nil, err
	}
	src, err := app.StoredMatch(ctx, st, arg)
	if err != nil {
		st.Close()
		if errors.Is(err, domain.ErrNotFound) {
			return nil, noMatchError(arg, dsn)
		}
		return nil, err
	}
	return &replaySource{Source: src, st: st}, nil
}

// noMatchError says that the store has no such match, and how to list its matches.
func noMatchError(id, dsn string) error {
	return fmt.Errorf("no match %q in %s and no such file (list matches with: tapp matches --db %s)", id, dsn, dsn)
}

func (s *replaySource) Close() {
	if s.st != nil {
		s.st.Close()
	}
}

// dbFlag registers --db.
func (m *Main) dbFlag(fs *flag.FlagSet) *string {
	return fs.String("db", m.env("TAPP_DB", defaultDB), "store: a SQLite file or a postgres:// URL (env TAPP_DB)")
}

// isTerminal reports whether r or w is a terminal.
func isTerminal(f any) bool {
	file, ok := f.(*os.File)
	return ok && term.IsTerminal(int(file.Fd()))
}

// viewFlags choose the seat whose view a replay takes.
type viewFlags struct {
	seat         string
	bot          string
	full, public bool
}

func (v *viewFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&v.seat, "seat", "", "see the deal as this seat saw it: 0, 1, 2 (3) or forehand, middlehand, rearhand, dealer")
	fs.StringVar(&v.bot, "bot", "", "see the deal as this bot's seat saw it")
	fs.BoolVar(&v.full, "full", false, "see every card (the default)")
	fs.BoolVar(&v.public, "public", false, "see only public information (a spectator's view)")
}

func (v *viewFlags) view(rules engine.RuleSet, rec *domain.DealRecord) (replay.View, error) {
	chosen := 0
	for _, set := range []bool{v.seat != "", v.bot != "", v.full, v.public} {
		if set {
			chosen++
		}
	}
	if chosen > 1 {
		return replay.View{}, usagef("give one of --seat, --bot, --full and --public")
	}
	switch {
	case v.seat != "":
		s, err := parseSeat(v.seat, rules.Players)
		if err != nil {
			return replay.View{}, err
		}
		return replay.SeatView(s), nil
	case v.bot != "":
		for s, b := range rec.Seating {
			if b == v.bot {
				return replay.SeatView(engine.Seat(s)), nil
			}
		}
		return replay.View{}, usagef("bot %q did not play deal %d (seating: %s)", v.bot, rec.Number, strings.Join(rec.Seating, ", "))
	case v.public:
		return replay.View{Seat: engine.NoSeat}, nil
	}
	return replay.FullView, nil
}

func parseSeat(text string, players int) (engine.Seat, error) {
	if n, err := strconv.Atoi(text); err == nil {
		if n < 0 || n >= players {
			return 0, usagef("--seat %d: seats are 0-%d", n, players-1)
		}
		return engine.Seat(n), nil
	}
	for s := 0; s < players; s++ {
		if strings.EqualFold(text, engine.SeatName(engine.Seat(s), players)) {
			return engine.Seat(s), nil
		}
	}
	names := "forehand, middlehand, rearhand"
	if players == 4 {
		names += ", dealer"
	}
	return 0, usagef("--seat %q: a seat number 0-%d or %s", text, players-1, names)
}

func (m *Main) replayView(ctx context.Context, args []string) error {
	fs := m.flags("replay", "MATCH|FILE.jsonl [flags]\n\n"+replayUsage)
	deal := fs.Int("deal", -1, "the deal to step through (without it: list the deals)")
	var vf viewFlags
	vf.register(fs)
	decision := fs.Int("decision", -1, "start at this decision (non-interactive: show only it)")
	sent := fs.Bool("sent", false, "show each request exactly as it was sent (protobuf JSON)")
	step := fs.Bool("step", false, "step interactively even when stdin/stdout are not a terminal")
	noStep := fs.Bool("no-step", false, "print the whole walk-through even on a terminal")
	dsn := m.dbFlag(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("usage:\n%s", replayUsage)
	}
	if err := checkBounds(fs).countIfSet("deal", *deal, 0, math.MaxInt32).countIfSet("decision", *decision, 0, math.MaxInt32).err(); err != nil {
		return err
	}
	src, err := m.openSource(ctx, pos[0], *dsn)
	if err != nil {
		return err
	}
	defer src.Close()
	if *deal < 0 {
		return m.listDeals(ctx, src, *dsn)
	}
	mt, rec, err := src.Deal(ctx, *deal)
	if err != nil {
		return err
	}
	view, err := vf.view(mt.Rules, rec)
	if err != nil {
		return err
	}
	wk, err := replay.NewWalk(mt, rec, view)
	if err != nil {
		return err
	}
	if *decision >= wk.Decisions() || *decision < -1 {
		return usagef("--decision %d: deal %d has decisions 0-%d", *decision, rec.Number, wk.Decisions()-1)
	}
	stored, err := app.StoredAnalysis(ctx, src.Source, rec.Number)
	if err != nil {
		return err
	}
	opts := replay.RenderOptions{Sent: *sent}
	if stored != nil {
		opts.Notes = dealNotes(stored)
	}
	interactive := *step || (!*noStep && isTerminal(m.Stdin) && isTerminal(m.Stdout))
	if interactive {
		return m.stepThrough(wk, max(*decision, 0), opts)
	}
	if *decision >= 0 {
		replay.WriteHeader(m.Stdout, wk)
		fmt.Fprintln(m.Stdout)
		replay.WriteStep(m.Stdout, wk, *decision, opts)
		return nil
	}
	replay.WriteWalk(m.Stdout, wk, opts)
	return nil
}

// stepThrough shows one step at a time and reads what to do next from stdin: enter = next,
// b = back, a number = that decision, s = the request as sent, q = quit.
func (m *Main) stepThrough(wk *replay.Walk, k int, opts replay.RenderOptions) error {
	out := m.Stdout
	in := bufio.NewReader(m.Stdin)
	last := len(wk.Steps) - 1
	replay.WriteHeader(out, wk)
	help := "enter = next · b = back · NUMBER = go to that decision · e = end · s = request as sent on/off · q = quit"
	for {
		fmt.Fprintln(out)
		replay.WriteStep(out, wk, k, opts)
		where := fmt.Sprintf("decision %d of 0-%d", k, last-1)
		if k == last {
			where = "end"
		}
		fmt.Fprintf(out, "\n[%s] enter next · b back · NUMBER jump · e end · s sent %s · h help · q quit > ", where, onOff(!opts.Sent))
		text, err := in.ReadString('\n')
		cmd := strings.TrimSpace(text)
		if err != nil && cmd == "" {
			fmt.Fprintln(out)
			return nil // end of input
		}
		switch cmd {
		case "":
			if k == last {
				return nil
			}
			k++
		case "b", "back":
			k = max(k-1, 0)
		case "e", "end":
			k = last
		case "q", "quit":
			return nil
		case "s":
			opts.Sent = !opts.Sent
		case "h", "?", "help":
			fmt.Fprintln(out, help)
		default:
			n, err := strconv.Atoi(cmd)
			if err != nil || n < 0 || n > last {
				fmt.Fprintf(out, "%q: %s (decisions 0-%d)\n", cmd, help, last-1)
				continue
			}
			k = n
		}
	}
}

// onOff is what the s key turns the request's display to: "on" or "off".
func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}

func (m *Main) listDeals(ctx context.Context, src *replaySource, dsn string) error {
	mt, deals, withheld, err := src.Summaries(ctx)
	if err != nil {
		return err
	}
	db := ""
	if src.Store != nil {
		db = m.suggestDB(dsn)
	}
	fmt.Fprintf(m.Stdout, "match %s · %s · bots %s · %d deal(s) stored\n\n", mt.ID, mt.Rules, strings.Join(mt.Bots, ", "), len(deals)+len(withheld))
	replay.WriteDealList(m.Stdout, mt, deals)
	if len(withheld) > 0 {
		fmt.Fprintf(m.Stdout, "\n%d deal(s) withheld: %s, stored, but their cards are still in play at another table "+
			"(their duplicate group, or their league round, is not finished)\n", len(withheld), replay.NumberRanges(withheld))
	}
	if len(deals) > 0 {
		fmt.Fprintf(m.Stdout, "\nstep through a deal: tapp replay %s --deal %d [--seat S | --bot NAME | --full]%s\n", src.Name, deals[0].Number, db)
		fmt.Fprintf(m.Stdout, "re-ask a decision:   tapp replay ask %s --deal %d --decision K (--bot NAME | --bot-cmd CMD)%s\n", src.Name, deals[0].Number, db)
	}
	return nil
}

func (m *Main) replayExport(ctx context.Context, args []string) error {
	fs := m.flags("replay export", "MATCH [flags]")
	format := fs.String("format", "jsonl", "export format: jsonl (one JSON object per deal, see docs/replay.md), tpn (Tapp Portable Notation, docs/notation.md) or tpn-jsonl (its JSON Lines twin)")
	var vf viewFlags
	fs.StringVar(&vf.seat, "seat", "", "tpn: each deal as this seat saw it (0, 1, 2, 3 or forehand, …): a redacted record")
	fs.StringVar(&vf.bot, "bot", "", "tpn: each deal as this bot's seat saw it (deals it did not play are left out)")
	deal := fs.Int("deal", -1, "export only this deal")
	out := fs.String("out", "", "write to this file (default: stdout)")
	noSent := fs.Bool("no-sent", false, "leave out the requests as sent (much smaller)")
	dsn := m.dbFlag(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("usage: tapp replay export MATCH [--format jsonl|tpn|tpn-jsonl] [--seat S | --bot NAME] [--deal N] [--out FILE] [--no-sent]")
	}
	if err := checkBounds(fs).countIfSet("deal", *deal, 0, math.MaxInt32).err(); err != nil {
		return err
	}
	if err := checkExportFormat(*format, vf); err != nil {
		return err
	}
	st, err := m.openExistingStore(ctx, *dsn)
	if err != nil {
		return err
	}
	defer st.Close()
	if _, err := st.GetMatch(ctx, pos[0]); err != nil {
		return err
	}
	w := m.Stdout
	var f *os.File
	if *out != "" {
		if f, err = os.Create(*out); err != nil {
			return err
		}
		defer f.Close()
		w = f
	}
	var only *int
	if *deal >= 0 {
		only = deal
	}
	n, withheld, err := m.writeExport(ctx, st, pos[0], only, w, *format, vf, *noSent)
	if err != nil {
		return fmt.Errorf("export of match %s: %w", pos[0], err)
	}
	if withheld > 0 {
		fmt.Fprintf(m.Stderr, "%d stored deal(s) of match %s left out: their cards are still in play at another table "+
			"(export again once the match, or its league round, is finished)\n", withheld, pos[0])
	}
	if f != nil {
		if err := f.Close(); err != nil {
			return err
		}
		fmt.Fprintf(m.Stderr, "exported %d deal(s) of match %s to %s\n", n, pos[0], *out)
	}
	return nil
}

// checkExportFormat refuses a format tapp replay export does not write, and a redaction the
// format does not have.
func checkExportFormat(format string, vf viewFlags) error {
	if format != "jsonl" && format != "tpn" && format != "tpn-jsonl" {
		return usagef("--format %s: one of jsonl, tpn, tpn-jsonl", format)
	}
	if format == "jsonl" && (vf.seat != "" || vf.bot != "") {
		return usagef("--seat and --bot redact a TPN export (--format tpn or tpn-jsonl); the jsonl export is the full record")
	}
	if vf.seat != "" && vf.bot != "" {
		return usagef("give one of --seat and --bot")
	}
	return nil
}

// writeExport writes the match's stored deals (or only one) to w in the format, buffered:
// how many it wrote, and how many it left out because their cards are still in play.
func (m *Main) writeExport(ctx context.Context, st *store.Store, matchID string, only *int, w io.Writer, format string, vf viewFlags, noSent bool) (n, withheld int, err error) {
	bw := bufio.NewWriter(w)
	if format == "jsonl" {
		n, withheld, err = replay.ExportStored(ctx, st, matchID, only, bw, replay.ExportOptions{NoSent: noSent})
	} else {
		n, withheld, err = m.exportNotation(ctx, st, matchID, only, bw, format == "tpn-jsonl", vf)
	}
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	return n, withheld, err
}

func (m *Main) replayVerify(ctx context.Context, args []string) error {
	fs := m.flags("replay verify", "MATCH|FILE.jsonl|FILE.tpn [flags]")
	complete := fs.Bool("complete", false, "also fail (exit 1) unless every match is proven complete: its commitment holds and every deal of its manifest is there, chained")
	dsn := m.dbFlag(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("usage: tapp replay verify MATCH|FILE.jsonl|FILE.tpn [--complete]")
	}
	var rep *replay.Report
	what := pos[0]
	if fi, serr := os.Stat(pos[0]); serr == nil && fi.Mode().IsRegular() {
		f, err := os.Open(pos[0])
		if err != nil {
			return err
		}
		defer f.Close()
		rep, err = replay.VerifyFile(ctx, f)
		if err != nil {
			return fmt.Errorf("%s: %w", pos[0], err)
		}
	} else {
		src, err := m.openSource(ctx, pos[0], *dsn)
		if err != nil {
			return err
		}
		defer src.Close()
		what = "match " + pos[0]
		if rep, err = replay.VerifyStored(ctx, src.st, pos[0]); err != nil {
			return err
		}
	}
	for _, p := range rep.Problems {
		fmt.Fprintln(m.Stdout, p)
	}
	for _, c := range slices.Concat(rep.Commitments, rep.Chains, rep.Complete, rep.Unchecked) {
		fmt.Fprintln(m.Stdout, c)
	}
	switch {
	case !rep.OK():
		fmt.Fprintf(m.Stdout, "%s: %d deal(s), %d decision(s) re-simulated: %d problem(s)\n", what, rep.Deals, rep.Decisions, len(rep.Problems))
		return rep.Err()
	case rep.Deals == 0:
		fmt.Fprintf(m.Stdout, "%s: no finished deal to verify\n", what)
	default:
		fmt.Fprintf(m.Stdout, "%s: %d deal(s), %d decision(s) re-simulated with the engine: every action and settlement checks out\n",
			what, rep.Deals, rep.Decisions)
	}
	if *complete && !rep.Proven() {
		return fmt.Errorf("verify --complete: %s is not proven complete (the lines above say what could not be checked)", what)
	}
	return nil
}

func (m *Main) replayAsk(ctx context.Context, args []string) error {
	fs := m.flags("replay ask", "MATCH|FILE.jsonl --deal N --decision K (--bot NAME | --bot-cmd CMD | --listen ADDR) [flags]")
	deal := fs.Int("deal", -1, "the deal")
	decisions := fs.String("decision", "", "the decision(s) to ask again: K, or K1,K2,…")
	seatText := fs.String("seat", "", "ask every decision of this seat in the deal (instead of --decision)")
	bot := fs.String("bot", "", "a built-in bot to ask: "+strings.Join(builtin.Names(), ", "))
	seed := fs.Uint64("seed", 1, "seed of a randomised built-in bot")
	botCmd := fs.String("bot-cmd", "", "a command that starts your bot, split like a shell would but run without one (use sh -c '…' for pipes), with TAPP_ARENA and TAPP_TOKEN set, e.g. \"python mybot.py\"")
	listen := fs.String("listen", "", "address of the replay arena; alone: wait for a bot you start yourself (e.g. under a debugger)")
	wait := fs.Duration("wait", 30*time.Second, "how long to wait for the bot to connect")
	plain := fs.Bool("insecure", false, "allow --listen on an address beyond loopback (the bot's token in clear: only on a trusted network)")
	name := fs.String("name", "", "the name the asked bot connects as (default: the bot recorded in the seat)")
	perDecision := fs.Duration("time", 0, "time per decision (default: the match's)")
	sent := fs.Bool("sent", false, "also show the request exactly as it was sent")
	dsn := m.dbFlag(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || *deal < 0 {
		return usagef("usage: tapp replay ask MATCH|FILE.jsonl --deal N --decision K (--bot NAME | --bot-cmd CMD | --listen ADDR)")
	}
	if err := checkBounds(fs).duration("wait", *wait, time.Millisecond, time.Hour).
		durationOrZero("time", *perDecision, domain.MinPerDecision, domain.MaxPerDecision).err(); err != nil {
		return err
	}
	// The replay arena takes a token (its one-time token, or the bot's registered one) and
	// has no TLS: beyond loopback only when the user says so.
	if *listen != "" && !*plain && !server.IsLoopback(*listen) {
		return usagef("--listen: refusing to listen on %s: the replay arena has no TLS and the bot's token would cross the network in clear text; "+
			"listen on 127.0.0.1, or pass --insecure on a trusted network", *listen)
	}
	if (*bot != "" && *botCmd != "") || (*bot == "" && *botCmd == "" && *listen == "") {
		return usagef("say which bot to ask: one of --bot NAME (built-in), --bot-cmd CMD (your program) or --listen ADDR (a bot you start)")
	}
	var builtinBot bots.Bot
	if *bot != "" {
		if builtinBot, err = builtin.New(*bot, *seed); err != nil {
			return usagef("%v", err)
		}
	}
	src, err := m.openSource(ctx, pos[0], *dsn)
	if err != nil {
		return err
	}
	defer src.Close()
	mt, rec, err := src.Deal(ctx, *deal)
	if err != nil {
		return err
	}
	if *perDecision > 0 {
		mt.TimeControl.PerDecision = *perDecision
	}
	questions, err := pickQuestions(*decisions, *seatText, mt, rec)
	if err != nil {
		return err
	}
	asker := app.Asker{Name: askedName(*name, *bot, questions[0]), Listen: *listen, Wait: *wait, Log: m.Log,
		Builtin: builtinBot, BuiltinKind: *bot, Command: *botCmd, Output: m.Stderr,
		Listening: func(addr, token string) {
			fmt.Fprintf(m.Stderr, "replay arena listening on %s: start your bot with\n  TAPP_ARENA=%s TAPP_TOKEN=%s <your bot>\n"+
				"(or with its registered token); waiting up to %s\n", addr, addr, token, *wait)
		}}
	if src.st != nil {
		asker.Store = src.st
	}
	answers, err := app.Reask(ctx, asker, questions)
	if err != nil {
		return err
	}
	if len(questions) == 1 {
		return m.printAnswer(mt, rec, questions[0], answers[0], *sent)
	}
	return m.printAnswers(rec, questions, answers)
}

// askedName is the name the asked bot connects with the arena's one-time token: --name, else
// the built-in bot's, else that of the bot it stands in for (the recorded bot of the first
// decision asked).
func askedName(name, builtinKind string, first *reask.Question) string {
	switch {
	case name != "":
		return name
	case builtinKind != "":
		return strings.ToLower(builtinKind)
	}
	return first.Recorded.Bot
}

// pickQuestions reads --decision (a list) or --seat (every decision of that seat) and makes
// each decision picked a question.
func pickQuestions(list, seatText string, mt replay.Match, rec *domain.DealRecord) ([]*reask.Question, error) {
	ks, err := pickDecisions(list, seatText, mt.Rules, rec)
	if err != nil {
		return nil, err
	}
	questions := make([]*reask.Question, 0, len(ks))
	for _, k := range ks {
		q, err := reask.NewQuestion(mt, rec, k)
		if err != nil {
			return nil, err
		}
		questions = append(questions, q)
	}
	return questions, nil
}

// pickDecisions reads --decision (a list) or --seat (every decision of that seat).
func pickDecisions(list, seatText string, rules engine.RuleSet, rec *domain.DealRecord) ([]int, error) {
	if (list == "") == (seatText == "") {
		return nil, usagef("give --decision K[,K…] or --seat S")
	}
	var ks []int
	if seatText != "" {
		s, err := parseSeat(seatText, rules.Players)
		if err != nil {
			return nil, err
		}
		for k, mv := range rec.Moves {
			if mv.Seat == s {
				ks = append(ks, k)
			}
		}
		if len(ks) == 0 {
			return nil, fmt.Errorf("seat %d made no decision in deal %d", s, rec.Number)
		}
		return ks, nil
	}
	for _, part := range strings.Split(list, ",") {
		k, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil || k < 0 || k >= len(rec.Moves) {
			return nil, usagef("--decision %q: deal %d has decisions 0-%d", part, rec.Number, len(rec.Moves)-1)
		}
		ks = append(ks, k)
	}
	return ks, nil
}

// answerText is a re-asked bot's answer in one phrase.
func answerText(a *reask.Answer) string {
	if !a.Answered {
		return fmt.Sprintf("no legal answer within %s (the arena would play the fallback %s and give a strike)", a.Latency.Round(time.Millisecond), a.Fallback)
	}
	return fmt.Sprintf("%s after %s", a.Action, a.Latency.Round(time.Microsecond))
}

func recordedText(q *reask.Question) string {
	r := q.Recorded
	switch {
	case r.Strike:
		return fmt.Sprintf("%s (no answer in time: the fallback, with a strike)", r.Action)
	case r.Fallback:
		return fmt.Sprintf("%s (the arena played it: the bot had forfeited or was gone)", r.Action)
	}
	return fmt.Sprintf("%s after %s", r.Action, r.Latency.Round(time.Microsecond))
}

func (m *Main) printAnswer(mt replay.Match, rec *domain.DealRecord, q *reask.Question, a *reask.Answer, sent bool) error {
	wk, err := replay.NewWalk(mt, rec, replay.SeatView(q.Seat))
	if err != nil {
		return err
	}
	out := m.Stdout
	replay.WriteHeader(out, wk)
	fmt.Fprintln(out)
	replay.WriteStep(out, wk, q.Index, replay.RenderOptions{Sent: sent})
	fmt.Fprintln(out)
	how := "the request as recorded"
	if q.Rebuilt {
		how = "no request had been sent (the arena played for the bot): rebuilt from the engine"
	}
	fmt.Fprintf(out, "re-asked  %s (%s): %s, deadline moved to now + %s\n", a.Bot, a.Version, how, q.PerDecision())
	for _, at := range a.Attempts {
		if at.Rejected != "" {
			fmt.Fprintf(out, "refused   %q after %s: %s\n", at.Text, at.After.Round(time.Microsecond), at.Rejected)
		}
	}
	fmt.Fprintf(out, "then      %s: %s\n", q.Recorded.Bot, recordedText(q))
	fmt.Fprintf(out, "now       %s (%s): %s\n", a.Bot, a.Version, answerText(a))
	switch {
	case a.Same(q):
		fmt.Fprintf(out, "verdict   SAME: the bot still plays %s\n", a.Action)
	case a.Answered:
		fmt.Fprintf(out, "verdict   DIFFERENT: %s in the match, %s now\n", q.Recorded.Action, a.Action)
	default:
		fmt.Fprintf(out, "verdict   DIFFERENT: %s in the match, no answer now\n", q.Recorded.Action)
	}
	return nil
}

func (m *Main) printAnswers(rec *domain.DealRecord, qs []*reask.Question, as []*reask.Answer) error {
	tw := tabwriter.NewWriter(m.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "deal %d: %d decisions re-asked of %s (%s)\n\n", rec.Number, len(qs), as[0].Bot, as[0].Version)
	fmt.Fprintln(tw, "decision\tseat\tkind\tthen\tnow\tverdict")
	var differ []string
	for i, q := range qs {
		a := as[i]
		verdict := "same"
		if !a.Same(q) {
			verdict = "DIFFERENT"
			differ = append(differ, strconv.Itoa(q.Index))
		}
		now := "no answer"
		if a.Answered {
			now = a.Action.String()
		}
		fmt.Fprintf(tw, "%d\t%d\t%s\t%s\t%s\t%s\n", q.Index, q.Seat, q.Decision, q.Recorded.Action, now, verdict)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(differ) == 0 {
		fmt.Fprintf(m.Stdout, "\nthe bot decides every one of them as in the match\n")
	} else {
		fmt.Fprintf(m.Stdout, "\n%d of %d decisions differ: %s (details: tapp replay ask … --decision K)\n", len(differ), len(qs), strings.Join(differ, ", "))
	}
	return nil
}
