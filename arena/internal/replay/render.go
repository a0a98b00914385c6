package replay

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"google.golang.org/protobuf/encoding/protojson"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/engine"
)

// RenderOptions change how steps are written.
type RenderOptions struct {
	// Sent adds the request exactly as it was sent (protobuf JSON) to every step whose
	// request the view may see.
	Sent bool
	// Notes are what a double-dummy analysis says of decisions (by decision index), shown
	// beside the card or bid in the full view only: they speak of cards the other views do
	// not see.
	Notes map[int]string
}

// label is how a row of a step is introduced: a fixed-width word.
func line(w io.Writer, label, format string, args ...any) {
	fmt.Fprintf(w, "  %-9s %s\n", label, fmt.Sprintf(format, args...))
}

// who is "seat 1 middlehand (random)".
func (wk *Walk) who(s engine.Seat) string {
	n := wk.Match.Rules.Players
	if s < 0 || int(s) >= n {
		return "nobody"
	}
	if b := botAt(wk.Deal, s); b != "" {
		return fmt.Sprintf("seat %d %s (%s)", s, engine.SeatName(s, n), b)
	}
	return fmt.Sprintf("seat %d %s", s, engine.SeatName(s, n))
}

// WriteHeader writes what the deal is and whose view the walk takes.
func WriteHeader(w io.Writer, wk *Walk) {
	rec, m := wk.Deal, wk.Match
	fmt.Fprintf(w, "match %s · deal %d (group %d)", m.ID, rec.Number, rec.Group)
	if m.LeagueID != "" {
		fmt.Fprintf(w, " · league %s", m.LeagueID)
	}
	fmt.Fprintln(w)
	line(w, "rules", "%s", m.Rules)
	seats := make([]string, m.Rules.Players)
	for s := range seats {
		seats[s] = fmt.Sprintf("%d %s: %s", s, engine.SeatName(engine.Seat(s), m.Rules.Players), botAt(rec, engine.Seat(s)))
	}
	line(w, "seats", "%s", strings.Join(seats, " · "))
	if rec.Options.Pot != 0 || rec.Options.ForcedRamsch {
		var opts []string
		if rec.Options.Pot != 0 {
			opts = append(opts, fmt.Sprintf("pot %d carried in", rec.Options.Pot))
		}
		if rec.Options.ForcedRamsch {
			opts = append(opts, "forced Ramsch (R-SESSION-3)")
		}
		line(w, "options", "%s", strings.Join(opts, " · "))
	}
	switch {
	case wk.View.Full:
		line(w, "view", "full: every card, every request and answer")
	case wk.View.Seat == engine.NoSeat:
		line(w, "view", "public: what a spectator knew")
	default:
		line(w, "view", "%s: only what this seat knew at each moment", wk.who(wk.View.Seat))
	}
	line(w, "decisions", "%d (0-%d), then the end", wk.Decisions(), wk.Decisions()-1)
}

// WriteWalk writes the header and every step.
func WriteWalk(w io.Writer, wk *Walk, o RenderOptions) {
	WriteHeader(w, wk)
	for k := range wk.Steps {
		fmt.Fprintln(w)
		WriteStep(w, wk, k, o)
	}
}

// WriteStep writes step k of the walk.
func WriteStep(w io.Writer, wk *Walk, k int, o RenderOptions) {
	s := &wk.Steps[k]
	if s.End {
		wk.writeEnd(w, s)
		return
	}
	title := fmt.Sprintf("decision %d [0-%d] · %s · %s", s.Index, wk.Decisions()-1, wk.who(s.Seat), s.Decision)
	if !wk.View.Full && s.Seat == wk.View.Seat {
		title += " · this seat decides"
	}
	fmt.Fprintf(w, "── %s %s\n", title, strings.Repeat("─", max(3, 78-len([]rune(title)))))
	wk.writeState(w, s)
	wk.writeDecision(w, s, o)
	var then []string
	skipped := false
	for _, e := range s.After {
		if !skipped && isAction(e.Kind) && e.Seat == s.Seat {
			skipped = true // the move itself: written as the answer
			continue
		}
		if t := wk.eventText(e); t != "" {
			then = append(then, t)
		}
	}
	for i, t := range then {
		label := ""
		if i == 0 {
			label = "then"
		}
		line(w, label, "%s", t)
	}
}

func isAction(k engine.EventKind) bool {
	switch k {
	case engine.EvBid, engine.EvDiscard, engine.EvTrump, engine.EvCall, engine.EvGive, engine.EvTout, engine.EvCard:
		return true
	}
	return false
}

// writeState writes what the view knows just before the decision.
func (wk *Walk) writeState(w io.Writer, s *Step) {
	o := &s.Obs
	n := wk.Match.Rules.Players
	if o.Contract == engine.NoContract && len(o.Bids) > 0 {
		bids := make([]string, len(o.Bids))
		for i, b := range o.Bids {
			bids[i] = fmt.Sprintf("%d %s", b.Seat, b.Action)
		}
		line(w, "bids", "%s", strings.Join(bids, " · "))
	}
	if o.Contract != engine.NoContract {
		line(w, "contract", "%s", contractText(wk, o.Contract, o.Declarer, o.Trump, o.Tout))
	}
	if o.Called.Valid() {
		where := "lies in the tapp"
		if o.CalledHolder != engine.NoSeat {
			where = fmt.Sprintf("was held by seat %d", o.CalledHolder)
		}
		text := fmt.Sprintf("%s, %s", o.Called, where)
		if o.Given.Valid() {
			text += fmt.Sprintf("; given in exchange: %s", o.Given)
		}
		line(w, "called", "%s", text)
	}
	if len(o.Tricks) > 0 || o.Current.Leader != engine.NoSeat {
		taken := make([]string, n)
		for i := range taken {
			taken[i] = fmt.Sprintf("%d:%d", i, o.TricksTaken[i])
		}
		line(w, "tricks", "%d played · taken %s", len(o.Tricks), strings.Join(taken, " "))
	}
	if o.Current.Leader != engine.NoSeat {
		cards := []string{}
		for i := 0; i < n; i++ {
			if c := o.Current.Cards[i]; c.Valid() {
				cards = append(cards, fmt.Sprintf("%d:%s", (int(o.Current.Leader)+i)%n, c))
			}
		}
		text := fmt.Sprintf("led by seat %d", o.Current.Leader)
		if len(cards) > 0 {
			text += ": " + strings.Join(cards, " ")
		}
		line(w, fmt.Sprintf("trick %d", len(o.Tricks)+1), "%s", text)
	}
	if o.Exposed != 0 {
		line(w, "open", "seat %d's hand lies face up: %s", o.Declarer, o.Exposed)
	}
	if wk.View.Full {
		for seat := 0; seat < n; seat++ {
			line(w, fmt.Sprintf("hand %d", seat), "%s", s.Hands[seat])
		}
		tapp := fmt.Sprintf("%s (unseen)", s.Tapp)
		if o.Contract == engine.Frage && o.Declarer != engine.NoSeat {
			tapp = fmt.Sprintf("%s (taken up by seat %d)", s.Tapp, o.Declarer)
		}
		line(w, "tapp", "%s", tapp)
		if s.Discards != 0 {
			line(w, "laid away", "%s", s.Discards)
		}
		return
	}
	if wk.View.Seat == engine.NoSeat {
		return
	}
	line(w, fmt.Sprintf("hand %d", wk.View.Seat), "%s", o.Hand)
	if o.Tapp != 0 {
		line(w, "tapp", "%s (taken up)", o.Tapp)
	}
	if o.Discarded != 0 {
		line(w, "laid away", "%s", o.Discarded)
	}
}

// contractName is the contract with its named trump where the declarer named one: "solo:C"
// (modern Suit Solo, Rufer, Durch; classic Solo), else the contract alone ("heartsolo").
func contractName(r engine.RuleSet, c engine.Contract, trump engine.Suit) string {
	named := c == engine.Solo || c == engine.Rufer || c == engine.Durch
	if r.Variant == engine.Wuerttemberg || !named || trump >= engine.NumSuits {
		return c.String()
	}
	return c.String() + ":" + trump.String()
}

func contractText(wk *Walk, c engine.Contract, decl engine.Seat, trump engine.Suit, tout bool) string {
	if c == engine.Ramsch {
		return "ramsch (everybody passed): the most card points pays"
	}
	text := fmt.Sprintf("%s by %s", contractName(wk.Match.Rules, c, trump), wk.who(decl))
	if trump < engine.NumSuits {
		text += " · trump " + trump.String()
	} else if c == engine.Bettel || c == engine.Ouvert {
		text += " · no trump"
	}
	if tout {
		text += " · Tout announced"
	}
	return text
}

// actionText is the action as the view saw it; a card hidden from the view is named so.
func actionText(a engine.Action) string {
	switch {
	case a.Kind == engine.ActDiscard && !a.Card.Valid():
		return "discard (a card laid away, hidden from this seat)"
	case a.Kind == engine.ActGive && !a.Card.Valid():
		return "give (a card given, hidden from this seat)"
	}
	return a.String()
}

// timing says where a decision's time went (domain.Attribution): when the request was handed
// to the bot's connection (and how long the arena held it before), what the bot says it
// thought, and what the transport took — for a strike, up to its late answer, if one came.
func timing(r *domain.DecisionRecord, a domain.Attribution) string {
	var parts []string
	if !a.Handed.IsZero() {
		parts = append(parts, "handed over at "+a.Handed.Format("15:04:05.000000")+" UTC")
	}
	parts = append(parts, "arena "+dur(a.Arena))
	if r.Retimed > 0 {
		parts = append(parts, fmt.Sprintf("retimed %d× (not yet handed over)", r.Retimed))
	}
	switch {
	case !a.Answered:
		parts = append(parts, "no answer came while the deal was played")
	case r.Fallback:
		parts = append(parts, fmt.Sprintf("late answer after %s: bot %s, transport %s", dur(a.Think+a.Transport), dur(a.Think), dur(a.Transport)))
	default:
		parts = append(parts, "bot "+dur(a.Think), "transport "+dur(a.Transport))
	}
	return strings.Join(parts, " · ")
}

// dur writes a duration rounded to microseconds.
func dur(d time.Duration) string { return d.Round(time.Microsecond).String() }

// writeDecision writes the question and the answers the view may see, then the analysis.
func (wk *Walk) writeDecision(w io.Writer, s *Step, o RenderOptions) {
	wk.writeAnswers(w, s, o)
	if note, ok := o.Notes[s.Index]; ok && wk.View.Full {
		line(w, "analysis", "%s", note)
	}
}

func (wk *Walk) writeAnswers(w io.Writer, s *Step, o RenderOptions) {
	if !s.Own {
		text := actionText(s.Action)
		if s.HasRecord {
			text += " after " + dur(s.Record.Latency)
		}
		line(w, "played", "%s", text)
		if s.Record.Strike {
			line(w, "STRIKE", "no answer in time: the arena played the fallback")
		} else if s.Record.Fallback {
			line(w, "FALLBACK", "the arena played for the bot (forfeited or gone)")
		}
		return
	}
	line(w, "legal", "%s", actionsText(s.Legal))
	r := &s.Record
	if !s.HasRecord {
		line(w, "played", "%s (no decision record)", actionText(s.Action))
		return
	}
	if req := s.Request; req != nil {
		text := "request " + r.RequestID
		if ol := req.GetOverageLeft(); ol != nil {
			text += fmt.Sprintf(" · %s per decision · overage left %s", dur(wk.Match.TimeControl.PerDecision), dur(ol.AsDuration()))
		}
		line(w, "asked", "%s", text)
	} else if r.RequestID == "" {
		line(w, "asked", "nothing: no request was sent (the bot had forfeited or was gone)")
	}
	for _, a := range r.Attempts {
		if a.Rejected != "" {
			line(w, "refused", "%q after %s: %s", a.Text, dur(a.After), a.Rejected)
		}
	}
	if r.Flooded > 0 {
		line(w, "refused", "%d more answers naming this request, counted, not listed (PROTO-FLOOD)", r.Flooded)
	}
	a := Attribute(r, wk.Match.TimeControl.PerDecision)
	switch {
	case r.Strike:
		line(w, "STRIKE", "no legal answer within %s: the arena played the fallback %s", dur(r.Latency), actionText(s.Action))
		line(w, "timing", "%s", timing(r, a))
	case r.Fallback && r.RequestID != "" && r.Retimed > 0:
		line(w, "FALLBACK", "the request never reached the bot's connection (%d retimes, %s in the arena): the arena played %s, no strike",
			r.Retimed, dur(r.ArenaShare), actionText(s.Action))
	case r.Fallback:
		line(w, "FALLBACK", "the arena played %s for the bot (forfeited or gone)", actionText(s.Action))
	default:
		line(w, "answer", "%s after %s", actionText(s.Action), dur(r.Latency))
		line(w, "timing", "%s", timing(r, a))
	}
	if o.Sent && s.Request != nil {
		b, err := protojson.MarshalOptions{Multiline: true, Indent: "  "}.Marshal(s.Request)
		if err == nil {
			line(w, "sent", "the request exactly as sent:")
			for _, l := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
				fmt.Fprintf(w, "            %s\n", l)
			}
		}
	}
}

func actionsText(as []engine.Action) string {
	parts := make([]string, len(as))
	for i, a := range as {
		parts[i] = a.String()
	}
	return strings.Join(parts, " ")
}

// eventText writes an event the view learned, "" for events written elsewhere.
func (wk *Walk) eventText(e engine.Event) string {
	switch e.Kind {
	case engine.EvContract:
		if e.Contract == engine.Ramsch {
			return "everybody passed: Ramsch"
		}
		return "contract: " + contractText(wk, e.Contract, e.Seat, e.Trump, false)
	case engine.EvThrowIn:
		return "everybody passed: the cards are thrown in (R-CL-PASS)"
	case engine.EvTappTaken:
		if e.Cards == 0 {
			return fmt.Sprintf("%s takes up the tapp (unseen by this seat)", wk.who(e.Seat))
		}
		return fmt.Sprintf("%s takes up the tapp: %s", wk.who(e.Seat), e.Cards)
	case engine.EvCalledCard:
		if e.Holder == engine.NoSeat {
			return fmt.Sprintf("%s lies in the tapp: no exchange", e.Card)
		}
		return fmt.Sprintf("%s held %s and hands it over", wk.who(e.Holder), e.Card)
	case engine.EvOuvertExposed:
		return fmt.Sprintf("%s's hand lies face up: %s", wk.who(e.Seat), e.Cards)
	case engine.EvTrickWon:
		return fmt.Sprintf("%s wins trick %d (%d points)", wk.who(e.Seat), e.Trick+1, e.Points)
	case engine.EvBid, engine.EvDiscard, engine.EvTrump, engine.EvCall, engine.EvGive, engine.EvTout, engine.EvCard:
		return fmt.Sprintf("%s: %s", wk.who(e.Seat), actionText(e.Action))
	case engine.EvDealEnd:
		return "the deal is over"
	}
	return "" // dealt, settled: shown at the start and the end
}

// writeEnd writes the reveal and the settlement (known to every seat, R-INFO-4).
func (wk *Walk) writeEnd(w io.Writer, s *Step) {
	m, rec := wk.Match, wk.Deal
	n := m.Rules.Players
	title := fmt.Sprintf("end of deal %d", rec.Number)
	fmt.Fprintf(w, "── %s %s\n", title, strings.Repeat("─", 78-len(title)))
	deal := rec.Deal
	if s.Obs.Reveal != nil {
		deal = *s.Obs.Reveal
	}
	for seat := 0; seat < n; seat++ {
		label := ""
		if seat == 0 {
			label = "reveal"
		}
		line(w, label, "%s: %s", wk.who(engine.Seat(seat)), deal.Hands[seat])
	}
	tapp := fmt.Sprintf("tapp: %s", deal.Tapp)
	if s.Obs.Discards != 0 {
		tapp += fmt.Sprintf(" · laid away: %s", s.Obs.Discards)
	}
	line(w, "", "%s", tapp)
	out := s.Outcome
	switch {
	case out.ThrownIn:
		line(w, "result", "thrown in: everybody passed")
	case out.Contract == engine.Ramsch:
		line(w, "result", "ramsch")
	default:
		res := "lost"
		if out.Draw {
			res = "drawn (60-60)"
		} else if out.DeclarerWon {
			res = "won"
		}
		line(w, "result", "%s: %s with %d card points, %d tricks", contractText(wk, out.Contract, out.Declarer, out.Trump, out.Tout),
			res, out.Points[out.Declarer], out.Tricks[out.Declarer])
	}
	pts := make([]string, n)
	pay := make([]string, n)
	for i := range pts {
		pts[i] = fmt.Sprintf("%d:%d/%d", i, out.Points[i], out.Tricks[i])
		pay[i] = fmt.Sprintf("%s %+d", botAt(rec, engine.Seat(i)), out.Payoff[i])
	}
	line(w, "points", "%s (card points/tricks by seat)", strings.Join(pts, " "))
	unit := "cents"
	if m.Rules.Variant != engine.Modern {
		unit = "game points"
	}
	text := strings.Join(pay, " · ") + " " + unit
	if m.Rules.Pot {
		text += fmt.Sprintf(" · pot %d → %d", out.PotBefore, out.PotAfter)
	}
	line(w, "payoff", "%s", text)
}

// WriteDealList writes one line per deal: what was played and how it ended, and how to open
// it. The deals need no requests (Sent), only their decisions' flags.
func WriteDealList(w io.Writer, m Match, deals []domain.DealRecord) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "deal\tgroup\tseating (seat 0, 1, …)\tcontract\tdeclarer\tresult\tpayoff by seat\tdecisions\tstrikes\tfallbacks")
	for i := range deals {
		d := &deals[i]
		o := d.Outcome
		contract, decl, result := contractName(m.Rules, o.Contract, o.Trump), "-", ""
		switch {
		case o.ThrownIn:
			contract, result = "thrown in", "-"
		case o.Contract == engine.Ramsch:
			result = "-"
		default:
			if o.Tout {
				contract += "+tout"
			}
			decl = fmt.Sprintf("%d %s", o.Declarer, botAt(d, o.Declarer))
			result = "lost"
			if o.Draw {
				result = "draw"
			} else if o.DeclarerWon {
				result = "won"
			}
		}
		pay := make([]string, m.Rules.Players)
		for s := range pay {
			pay[s] = fmt.Sprintf("%+d", o.Payoff[s])
		}
		strikes, fallbacks := 0, 0
		for _, x := range d.Decisions {
			if x.Strike {
				strikes++
			}
			if x.Fallback {
				fallbacks++
			}
		}
		fmt.Fprintf(tw, "%d\t%d\t%s\t%s\t%s\t%s\t%s\t%d\t%d\t%d\n", d.Number, d.Group, strings.Join(d.Seating, ","),
			contract, decl, result, strings.Join(pay, " "), len(d.Moves), strikes, fallbacks)
	}
	tw.Flush()
}
