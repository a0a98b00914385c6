package botcheck

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync/atomic"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/reask"
	"github.com/tapparena/tapp/arena/internal/referee"
	"github.com/tapparena/tapp/engine"
)

// What to change, by kind of problem.
const (
	fixLate = "answer before the request's deadline (DecisionRequest.deadline; the time per decision is in GameStarted.time_control): " +
		"a bot that searches should watch the clock and answer its best move so far"
	fixIllegal = "answer exactly one of the strings in DecisionRequest.legal (e.g. \"heartsolo\", not \"solo:H\"); " +
		"docs/rules.md lists them for every decision"
	fixMalformed = "answer with the game_id and request_id of the open request and an action in action notation (docs/protocol.md)"
	fixCrash     = "the bot's program ended during the item: see its stderr below; it must keep running until the arena says it is going away"
	fixEnded     = "after GameEnded (aborted or not) the bot must forget the game and keep its stream open for the next one"
)

// problems collects what went wrong in an item, by kind, so that the report gives each fix once.
type problems struct {
	notes []string
	fixes []string
	kinds []string
}

func (p *problems) add(kind, fix, note string) {
	if len(p.notes) < 12 {
		p.notes = append(p.notes, note)
	}
	for _, k := range p.kinds {
		if k == kind {
			return
		}
	}
	p.kinds = append(p.kinds, kind)
	p.fixes = append(p.fixes, fix)
}

func (p *problems) item(name, summary string, notes ...string) Item {
	if len(p.kinds) == 0 {
		return Item{Name: name, Pass: true, Reason: summary, Notes: notes}
	}
	reason := strings.Join(p.kinds, ", ")
	if summary != "" {
		reason += ": " + summary
	}
	return Item{Name: name, Reason: reason, Fix: strings.Join(p.fixes, "; "), Notes: append(p.notes, notes...)}
}

// judge reads the bot's decisions in a deal record.
func (c *checker) judge(p *problems, rec *domain.DealRecord, tc domain.TimeControl) (asked int) {
	for _, d := range rec.Decisions {
		if d.Bot != c.cfg.Name {
			continue
		}
		asked++
		where := fmt.Sprintf("deal %d, decision %d (%s, seat %d)", rec.Number, d.Index, d.Decision, d.Seat)
		for _, at := range d.Attempts {
			if at.Rejected == "" {
				continue
			}
			if ruleID.MatchString(at.Rejected) {
				p.add("illegal", fixIllegal, fmt.Sprintf("%s: answered %q: refused: %s", where, at.Text, at.Rejected))
			} else {
				p.add("malformed", fixMalformed, fmt.Sprintf("%s: answered %q: refused: %s", where, at.Text, at.Rejected))
			}
		}
		switch {
		case d.Fallback:
			p.add("late", fixLate, fmt.Sprintf("%s: no legal answer within %s: the arena played %s", where, d.Latency.Round(time.Millisecond), d.Action))
		case d.Latency > tc.PerDecision:
			p.add("late", fixLate, fmt.Sprintf("%s: answered after %s, past the %s per decision (overage spent)", where, d.Latency.Round(time.Millisecond), tc.PerDecision))
		}
	}
	return asked
}

var ruleID = regexp.MustCompile(`^R-[A-Z0-9-]+`)

// checkPlay plays full deals with the bot in every seat in turn.
func (c *checker) checkPlay(ctx context.Context, r engine.RuleSet) {
	name := "play " + r.Variant.String() + variantNote(r)
	var p problems
	clock := referee.NewClock(c.cfg.TimeControl)
	decisions, restarts := 0, c.restarts()
	for n := range c.cfg.Deals {
		seat := engine.Seat(n % r.Players)
		rec, err := c.playDeal(ctx, r, n, seat, clock, c.cfg.TimeControl, nil)
		if err != nil {
			p.add("crash", fixCrash, fmt.Sprintf("deal %d: %v", n, err))
			break
		}
		decisions += c.judge(&p, rec, c.cfg.TimeControl)
		if c.restarts() > restarts {
			p.add("crash", fixCrash, fmt.Sprintf("deal %d: the bot's program ended", n))
			break
		}
		if c.waitConnected(ctx, time.Second) == nil {
			p.add("missed GameEnded", fixEnded, fmt.Sprintf("deal %d: the bot's stream ended when the game ended", n))
			break
		}
	}
	if clock.Forfeited() {
		p.add("forfeit", fixLate, fmt.Sprintf("the bot forfeited after %d strikes", clock.Strikes()))
	}
	c.afterEnd(&p)
	c.add(p.item(name, fmt.Sprintf("%d deals, %d decisions of the bot", c.cfg.Deals, decisions)))
}

func variantNote(r engine.RuleSet) string {
	var opts []string
	if r.Players != 3 {
		opts = append(opts, fmt.Sprintf("players=%d", r.Players))
	}
	if r.PackSize != 36 {
		opts = append(opts, fmt.Sprintf("pack=%d", r.PackSize))
	}
	if r.Variant == engine.Modern && r.Frage {
		opts = append(opts, "frage=on")
	}
	if len(opts) == 0 {
		return ""
	}
	return " " + strings.Join(opts, " ")
}

// playDeal plays one deal, the bot in seat; wrap, when set, wraps the bot's line.
func (c *checker) playDeal(ctx context.Context, r engine.RuleSet, n int, seat engine.Seat, clock *referee.Clock,
	tc domain.TimeControl, wrap func(referee.Conn) referee.Conn) (*domain.DealRecord, error) {
	names := c.seating(r.Players, seat)
	sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	conns, release, err := c.srv.SeatTable(sctx, names)
	cancel()
	if err != nil {
		return nil, fmt.Errorf("seating the table: %w", err)
	}
	defer release()
	players := make([]referee.Player, len(names))
	for i, nm := range names {
		conn, ck := conns[i], referee.NewClock(tc)
		if nm == c.cfg.Name {
			ck = clock
			if wrap != nil {
				conn = wrap(conn)
			}
		}
		players[i] = referee.Player{Bot: nm, Conn: conn, Clock: ck}
	}
	return referee.Play(ctx, &referee.Table{
		MatchID: "check-" + strings.ReplaceAll(r.Variant.String()+variantNote(r), " ", "-"), Number: n, Rules: r,
		Deal: engine.DealFromSeed(r, c.cfg.Seed, uint64(n)), Players: players, TimeControl: tc,
	})
}

// checkKind asks the bot positions of one decision kind.
func (c *checker) checkKind(ctx context.Context, r engine.RuleSet, k engine.Decision) {
	name := fmt.Sprintf("%s in %s%s", k, r.Variant, variantNote(r))
	var p problems
	positions, err := findPositions(r, k, c.cfg.Questions, c.cfg.Seed)
	if err != nil {
		c.add(Item{Name: name, Reason: "the check found no position to ask: " + err.Error(), Fix: "report this to the arena's authors"})
		return
	}
	actx, cancel := context.WithTimeout(ctx, 10*time.Second)
	conn, release, err := c.srv.Acquire(actx, c.cfg.Name, nil)
	cancel()
	if err != nil {
		c.add(Item{Name: name, Reason: "the bot could not be seated: " + err.Error(), Fix: fixCrash, Notes: c.stderrTail(10)})
		return
	}
	defer release()
	restarts := c.restarts()
	var slowest time.Duration
	for i, pos := range positions {
		id := fmt.Sprintf("%s-%s-%d", strings.ReplaceAll(r.Variant.String()+variantNote(r), " ", "-"), k, i)
		players := c.seating(r.Players, pos.seat)
		res, err := ask(ctx, conn, pos, id, players, c.cfg.TimeControl)
		where := fmt.Sprintf("position %d (seat %d, legal %s)", i, pos.seat, shortList(res))
		if err != nil {
			p.add("crash", fixCrash, where+": "+err.Error())
			break
		}
		for j, at := range res.Attempts {
			if at.Rejected == "" {
				continue
			}
			kind, fix := "illegal", fixIllegal
			if !strings.HasPrefix(res.Rules[min(j, len(res.Rules)-1)], "R-") {
				kind, fix = "malformed", fixMalformed
			}
			p.add(kind, fix, fmt.Sprintf("%s: answered %q: refused: %s", where, at.Text, at.Rejected))
		}
		switch {
		case !res.Accepted:
			p.add("late", fixLate, fmt.Sprintf("%s: no legal answer within %s", where, res.Latency.Round(time.Millisecond)))
		case res.Latency > c.cfg.TimeControl.PerDecision:
			p.add("late", fixLate, fmt.Sprintf("%s: answered after %s, past the %s per decision", where, res.Latency.Round(time.Millisecond), c.cfg.TimeControl.PerDecision))
		}
		slowest = max(slowest, res.Latency)
		if c.restarts() > restarts {
			p.add("crash", fixCrash, where+": the bot's program ended")
			break
		}
	}
	c.afterEnd(&p)
	c.add(p.item(name, fmt.Sprintf("%d positions asked, slowest answer %s", len(positions), slowest.Round(time.Millisecond))))
}

func shortList(res *reask.Result) string {
	if res == nil || res.Request == nil {
		return "?"
	}
	legal := make([]string, len(res.Request.Legal))
	for i, a := range res.Request.Legal {
		legal[i] = a.String()
	}
	if len(legal) > 6 {
		return strings.Join(legal[:6], " ") + fmt.Sprintf(" … (%d)", len(legal))
	}
	return strings.Join(legal, " ")
}

// dropper is the bot's line in the resume item: it cuts the bot's connection just before the
// arena sends its second decision request, so that the request is pending when the bot
// comes back and must be answered from the snapshot.
type dropper struct {
	referee.Conn
	requests atomic.Int32
	at       int32
	drop     func()
}

func (d *dropper) before() {
	if d.requests.Add(1) == d.at {
		d.drop()
	}
}

func (d *dropper) Ask(req *referee.Request) ([]byte, <-chan time.Time, error) {
	d.before()
	return d.Conn.Ask(req)
}

// checkResume drops the bot's stream in the middle of a deal: the bot must come back within
// the grace period with the resume token and last seq from its Welcome, take the snapshot,
// and answer the pending request.
func (c *checker) checkResume(ctx context.Context) {
	const name = "resume after a dropped stream"
	r := c.cfg.Rules[len(c.cfg.Rules)-1]
	for _, x := range c.cfg.Rules {
		if x.Variant == engine.Modern && x.Players == 3 {
			r = x
		}
	}
	before := map[string]bool{}
	for _, s := range c.sessions() {
		before[s.GetSessionId()] = true
	}
	// A few seconds more per decision: the bot may take its time to reconnect, but it must
	// not lose a decision.
	tc := domain.TimeControl{PerDecision: c.cfg.TimeControl.PerDecision + 3*time.Second, MaxStrikes: 3}
	type drop struct {
		at       time.Time
		accepted int // connections before the drop
	}
	dropped := make(chan drop, 1)
	wrap := func(conn referee.Conn) referee.Conn {
		return &dropper{Conn: conn, at: 2, drop: func() {
			d := drop{at: time.Now(), accepted: c.proxy.Accepted()}
			c.proxy.Drop()
			dropped <- d
		}}
	}
	var p problems
	type played struct {
		rec *domain.DealRecord
		err error
	}
	done := make(chan played, 1)
	go func() {
		rec, err := c.playDeal(ctx, r, 0, 0, referee.NewClock(tc), tc, wrap)
		done <- played{rec, err}
	}()
	var verdict string
	select {
	case d := <-dropped:
		verdict = c.watchResume(ctx, d.at, d.accepted, before, &p)
	case res := <-done:
		if res.err != nil {
			p.add("crash", fixCrash, res.err.Error())
		} else {
			p.add("too few decisions", "report this to the arena's authors", "the deal ended before the bot's second decision")
		}
		c.add(p.item(name, ""))
		return
	}
	res := <-done
	if res.err != nil {
		p.add("crash", fixCrash, res.err.Error())
	} else {
		for _, d := range res.rec.Decisions {
			if d.Bot == c.cfg.Name && d.Fallback {
				p.add("lost decisions", "after a resume, answer the Snapshot's pending requests (and every request after it) as usual",
					fmt.Sprintf("decision %d (%s): no legal answer in time; the arena played %s", d.Index, d.Decision, d.Action))
			}
		}
	}
	c.add(p.item(name, verdict))
}

// watchResume waits for the bot to come back after the drop and says how it came: on its old
// session (a resume: the arena has seen the old stream end, and a new connection came), or as
// a new session.
func (c *checker) watchResume(ctx context.Context, at time.Time, accepted int, before map[string]bool, p *problems) string {
	fixResume := "reconnect after a dropped stream and send Hello with resume_token (from Welcome) and last_seq (the last seq received); " +
		"then take the Snapshot: its pending requests are open (docs/protocol.md, \"Resume\")"
	deadline := at.Add(grace)
	sawDown := false
	for time.Now().Before(deadline) && ctx.Err() == nil {
		oldUp := false
		for _, s := range c.sessions() {
			switch {
			case !before[s.GetSessionId()] && s.GetConnected():
				p.add("ignores resume", fixResume, fmt.Sprintf("the bot came back after %s as a new session (no resume token): its seat in the running deal played fallbacks", time.Since(at).Round(time.Millisecond)))
				return ""
			case before[s.GetSessionId()] && s.GetConnected():
				oldUp = true
			}
		}
		sawDown = sawDown || !oldUp
		if oldUp && c.proxy.Accepted() > accepted && (sawDown || time.Since(at) > 2*time.Second) {
			return fmt.Sprintf("the stream was cut; the bot resumed its session after %s and answered the pending request", time.Since(at).Round(time.Millisecond))
		}
		time.Sleep(5 * time.Millisecond)
	}
	p.add("no reconnect", fixResume, fmt.Sprintf("the bot did not come back within the grace period of %s", grace))
	return ""
}

// checkShutdown tells the bot the arena is going away: it must close its stream, and a
// launched bot must end its program, within a few seconds.
func (c *checker) checkShutdown(ctx context.Context) {
	const name = "shutdown (GoingAway)"
	const limit = 5 * time.Second
	var p problems
	if c.proc != nil {
		// Its exit is now expected: not restarted. A crash on the way out shows in its stderr
		// (the stderr item).
		c.proc.Retire()
	}
	start := time.Now()
	sctx, cancel := context.WithTimeout(ctx, limit)
	c.srv.Shutdown(sctx) // returns early once every stream has ended
	cancel()
	closed := time.Since(start)
	if closed >= limit {
		p.add("stream kept open", "on GoingAway, close the stream (and end the program, or wait for a new arena)",
			fmt.Sprintf("the bot's stream was still open %s after GoingAway", limit))
	}
	summary := fmt.Sprintf("the bot closed its stream %s after GoingAway", closed.Round(time.Millisecond))
	if c.proc != nil {
		start := time.Now()
		launchStop(c.proc, limit)
		took := time.Since(start)
		c.proc = nil
		switch {
		case took >= limit:
			p.add("still running", "end the program when the arena says it is going away (the Go SDK's Run returns sdk.ErrGoingAway; the Python SDK's run() returns)",
				fmt.Sprintf("the program was still running %s after GoingAway and was stopped", limit))
		default:
			summary += fmt.Sprintf(" and its program ended %s later", took.Round(time.Millisecond))
		}
	}
	c.add(p.item(name, summary))
}

// crashLine matches the lines that bots print when they crash: Python tracebacks, Go panics
// and fatal logs.
var crashLine = regexp.MustCompile(`Traceback \(most recent call last\)|^panic: |^fatal error: |\bFATAL\b|"level":"fatal"`)

// coveredLine matches what the SDKs log when they answer for the bot because its code
// raised, answered something illegal or was too slow: the arena sees a legal answer, but the
// bot's own logic failed.
var coveredLine = regexp.MustCompile(`answering a legal fallback|answering the first legal|was sent for it|bot raised`)

// checkStderr reads what the launched bot wrote to stderr: a crash, or an answer the SDK had
// to give for the bot, fails the check; everything else is shown for information.
func (c *checker) checkStderr() {
	if c.stderr == "" {
		return
	}
	const name = "stderr"
	lines := c.stderrLines()
	var p problems
	covered := false // a traceback right after an SDK's line is the bot's error it covered
	for _, l := range lines {
		switch {
		case coveredLine.MatchString(l):
			covered = true
			p.add("the SDK answered for the bot", "the bot's own code raised, answered something illegal or too late, and the SDK sent a legal move for it: fix the code the lines below point at",
				"stderr: "+l)
		case crashLine.MatchString(l) && !covered:
			p.add("crash", "fix the error the bot printed (its stderr is below); on GoingAway and on a dropped stream a bot returns or reconnects, it does not crash",
				"stderr: "+l)
		default:
			covered = covered && (strings.HasPrefix(l, " ") || strings.HasPrefix(l, "Traceback") || strings.Contains(l, "Error"))
		}
	}
	if len(p.kinds) > 0 {
		c.add(p.item(name, fmt.Sprintf("%d lines", len(lines))))
		return
	}
	c.add(p.item(name, fmt.Sprintf("%d lines, no crash, no answer the SDK had to give for the bot", len(lines)), c.stderrTail(15)...))
}

// afterEnd adds the bot's answers for games that had ended: it missed their GameEnded.
func (c *checker) afterEnd(p *problems) {
	time.Sleep(50 * time.Millisecond) // let answers on their way arrive
	for _, note := range c.answersAfterEnd() {
		p.add("missed GameEnded", fixEnded, note)
	}
}
