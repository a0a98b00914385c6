package web

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"google.golang.org/protobuf/proto"

	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
	viewv1 "github.com/tapparena/tapp/proto/tapp/view/v1"
)

// LiveSource is the arena's match service as the live view needs it: which matches run, and
// their public events (a deal's hands only once it is over).
type LiveSource interface {
	Running() []string
	Watch(ctx context.Context, matchID string, send func(*tappv1.WatchMatchResponse) error) error
}

// Live keeps, per watched running match, the public events since a page first asked for it,
// so pages can poll with the last sequence number they saw. A match nobody polls for a while
// is no longer watched; the match itself is never slowed (the service drops events for a
// watcher that does not keep up, and this one only appends to a bounded buffer).
type Live struct {
	src LiveSource
	ctx context.Context
	now func() time.Time

	mu    sync.Mutex
	feeds map[string]*feed
}

// Bounds of one feed: the events kept for pages that poll late, and how long a feed lives
// without a poll.
const (
	liveKeep    = 4096
	liveIdleFor = time.Minute
)

type feed struct {
	events   []*viewv1.LiveEvent // the latest liveKeep, oldest first
	seq      int64
	deals    map[int32]*liveDeal
	order    []int32
	finished bool
	polled   time.Time
	stop     context.CancelFunc
	// settled holds the payoffs by seat of every deal settled since the watch began (those
	// under way then too): the match's score as it goes, without reading the store per poll.
	settled map[int32][]int32
}

// NewLive follows src's matches until ctx ends.
func NewLive(ctx context.Context, src LiveSource) *Live {
	return &Live{src: src, ctx: ctx, now: time.Now, feeds: make(map[string]*feed)}
}

// Running lists the running matches.
func (l *Live) Running() []string { return l.src.Running() }

// Fill adds to resp the deals of the match and its public events after seq.
func (l *Live) Fill(ctx context.Context, matchID string, after int64, resp *viewv1.GetLiveResponse) error {
	_, err := l.fill(ctx, matchID, after, resp)
	return err
}

// fill is Fill, which also returns the payoffs by seat of the deals settled since the watch
// began (a copy).
func (l *Live) fill(_ context.Context, matchID string, after int64, resp *viewv1.GetLiveResponse) (map[int32][]int32, error) {
	l.mu.Lock()
	f := l.feeds[matchID]
	if f == nil {
		running := false
		for _, id := range l.src.Running() {
			running = running || id == matchID
		}
		if !running {
			l.mu.Unlock()
			resp.MatchFinished = true
			return nil, nil
		}
		f = l.start(matchID)
	}
	f.polled = l.now()
	defer l.mu.Unlock()
	settled := make(map[int32][]int32, len(f.settled))
	for n, p := range f.settled {
		settled[n] = p
	}
	for _, n := range f.order {
		d := f.deals[n]
		resp.Deals = append(resp.Deals, &viewv1.LiveDeal{DealNumber: d.DealNumber, Seating: d.Seating, Finished: d.Finished})
	}
	for _, ev := range f.events {
		if ev.Seq > after {
			resp.Events = append(resp.Events, ev)
		}
	}
	resp.LastSeq = f.seq
	resp.MatchFinished = f.finished
	return settled, nil
}

// start begins to watch a match; l.mu is held.
func (l *Live) start(matchID string) *feed {
	ctx, stop := context.WithCancel(l.ctx)
	f := &feed{deals: make(map[int32]*liveDeal), stop: stop, polled: l.now(), settled: make(map[int32][]int32)}
	l.feeds[matchID] = f
	go func() {
		defer stop()
		err := l.src.Watch(ctx, matchID, func(msg *tappv1.WatchMatchResponse) error {
			l.mu.Lock()
			defer l.mu.Unlock()
			if l.now().Sub(f.polled) > liveIdleFor {
				return errIdle
			}
			l.add(f, msg)
			return nil
		})
		l.mu.Lock()
		f.finished = true
		l.mu.Unlock()
		if errors.Is(err, errIdle) || errors.Is(err, domain.ErrNotFound) {
			l.mu.Lock()
			if l.feeds[matchID] == f {
				delete(l.feeds, matchID)
			}
			l.mu.Unlock()
		}
	}()
	return f
}

// liveDeal is a deal of a feed and the number of its public events so far.
type liveDeal struct {
	*viewv1.LiveDeal
	events int32
}

var errIdle = errors.New("no page polls this match")

// add appends one message of the match service; l.mu is held.
func (l *Live) add(f *feed, msg *tappv1.WatchMatchResponse) {
	if msg.GetMatchFinished() {
		f.finished = true
		return
	}
	n := msg.GetDealNumber()
	if msg.GetEvent().GetKind() == tappv1.EventKind_EVENT_KIND_SETTLED {
		f.settled[n] = msg.GetEvent().GetPayoff()
	}
	d := f.deals[n]
	if d == nil {
		if msg.GetEvent().GetKind() != tappv1.EventKind_EVENT_KIND_DEALT {
			return // a deal already under way when the watch began: shown from the next one on
		}
		d = &liveDeal{LiveDeal: &viewv1.LiveDeal{DealNumber: n}}
		f.deals[n] = d
		f.order = append(f.order, n)
		if len(f.order) > 8 { // a page shows the deals in play and the last few
			delete(f.deals, f.order[0])
			f.order = f.order[1:]
		}
	}
	f.seq++
	// The service sends public events without their log position; a deal followed from its
	// deal has them all, in order, so the count is the position.
	event := proto.Clone(msg.GetEvent()).(*tappv1.GameEvent)
	event.Index = d.events
	d.events++
	ev := &viewv1.LiveEvent{Seq: f.seq, DealNumber: n, Event: event, Settlement: msg.GetSettlement()}
	if msg.GetEvent().GetKind() == tappv1.EventKind_EVENT_KIND_SETTLED {
		d.Finished = true
	}
	f.events = append(f.events, ev)
	if len(f.events) > liveKeep {
		f.events = append(f.events[:0:0], f.events[len(f.events)-liveKeep:]...)
	}
}
