package sdk

import (
	"testing"

	"github.com/tapparena/tapp/arena/wire"
)

// A request is decided once however often it comes (a snapshot repeats the open one), a
// refused answer is corrected once with the first legal action, and a game's requests are
// forgotten with its end, while other games keep theirs.
func TestOpenRequestsDecideOnceAndCorrectOnce(t *testing.T) {
	t.Parallel()
	o := newOpenRequests()
	r1 := &wire.DecodedRequest{GameID: "m/1", RequestID: "r1", Legal: []string{"pass", "bid 18"}}
	if !o.start(r1) || o.start(r1) {
		t.Fatalf("the same request started twice, or not at all")
	}
	if !o.start(&wire.DecodedRequest{GameID: "m/2", RequestID: "r1", Legal: []string{"HA"}}) {
		t.Fatalf("another game's request of the same id refused")
	}
	if legal, ok := o.takeRetry("m/1", "r1"); !ok || legal != "pass" {
		t.Fatalf("takeRetry = %q %v, want pass", legal, ok)
	}
	if _, ok := o.takeRetry("m/1", "r1"); ok {
		t.Fatalf("a refused answer corrected twice")
	}
	if _, ok := o.takeRetry("m/1", "r9"); ok {
		t.Fatalf("an unknown request corrected")
	}
	o.endGame("m/1")
	o.endGame("m/unknown")
	if _, ok := o.takeRetry("m/1", "r1"); ok {
		t.Fatalf("an ended game's request corrected")
	}
	if !o.start(&wire.DecodedRequest{GameID: "m/3", RequestID: "r1", Legal: []string{"EA"}}) {
		t.Fatalf("a new game's request refused")
	}
	if legal, ok := o.takeRetry("m/3", "r1"); !ok || legal != "EA" {
		t.Fatalf("the new game (on an ended game's list) corrects %q %v, want EA", legal, ok)
	}
	if legal, ok := o.takeRetry("m/2", "r1"); !ok || legal != "HA" {
		t.Fatalf("the other game lost its request: %q %v", legal, ok)
	}
}
