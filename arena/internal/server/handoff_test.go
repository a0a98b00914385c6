package server

import (
	"testing"
	"time"
)

// A game's next request reuses its last request's hand-off only once the writer has sent
// that one and the referee has taken its moment: a hand-off still queued, or whose moment
// nobody took (a request the referee gave up on before its hand-off), would give the next
// request another request's clock.
func TestHandOffIsReusedOnlyWhenDone(t *testing.T) {
	t.Parallel()
	r := &route{}
	h1 := r.handOff()
	if h2 := r.handOff(); h2 == h1 {
		t.Fatal("a hand-off not sent yet was reused")
	}
	h2 := r.last
	h2.handed <- time.Now() // handed, its moment not taken
	h2.sent.Store(true)
	h3 := r.handOff()
	if h3 == h2 {
		t.Fatal("a hand-off whose moment nobody took was reused")
	}
	h3.handed <- time.Now()
	h3.sent.Store(true)
	<-h3.handed // the referee takes it
	if h4 := r.handOff(); h4 != h3 || h4.sent.Load() {
		t.Fatalf("a finished hand-off was not reused (or not reset): %p %p", h4, h3)
	}
	var none *route // a game not opened
	if none.handOff() == nil {
		t.Fatal("no hand-off for a game not opened")
	}
}
