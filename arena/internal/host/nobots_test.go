package host

import (
	"context"
	"errors"
	"testing"

	"github.com/tapparena/tapp/arena/internal/domain"
)

// The store of an ephemeral arena answers every call: no bot, no match, and writes refused
// with a reason (a nil store inside it used to panic on anything but a token lookup).
func TestEphemeralStoreStoresNothing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h, err := Start(ctx, Config{Listen: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	defer h.StopWithin(0)
	if h.Store != nil || h.Runner != nil || h.Service != nil {
		t.Errorf("an ephemeral host has store %v, runner %v, service %v; want none", h.Store, h.Runner, h.Service)
	}
	var st domain.Store = noBots{}
	if _, err := st.BotByTokenHash(ctx, []byte("x")); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("BotByTokenHash = %v, want ErrNotFound", err)
	}
	if _, err := st.GetMatch(ctx, "m"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("GetMatch = %v, want ErrNotFound", err)
	}
	if err := st.CreateBot(ctx, &domain.Bot{Name: "b"}); !errors.Is(err, errEphemeral) {
		t.Errorf("CreateBot = %v, want the arena to say it stores nothing", err)
	}
	if err := st.SaveDeal(ctx, &domain.DealRecord{}); !errors.Is(err, errEphemeral) {
		t.Errorf("SaveDeal = %v", err)
	}
	if bots, err := st.ListBots(ctx); err != nil || len(bots) != 0 {
		t.Errorf("ListBots = %v, %v", bots, err)
	}
}
