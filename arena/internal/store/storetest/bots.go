package storetest

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
)

// Bots are stored with an id and a creation time, found by name and by token hash, listed
// by name; a name, a token or an id taken already is a conflict.
func testBots(t *testing.T, s Store) {
	ctx := context.Background()
	alice := &domain.Bot{Name: "alice", TokenHash: []byte{1, 2, 3}}
	if err := s.CreateBot(ctx, alice); err != nil {
		t.Fatalf("CreateBot: %v", err)
	}
	if alice.ID == "" || alice.Created.IsZero() {
		t.Fatalf("CreateBot left ID %q, Created %v unset", alice.ID, alice.Created)
	}
	created := time.Date(2026, 1, 2, 3, 4, 5, 6000, time.UTC)
	bob := &domain.Bot{ID: "bob-id", Name: "bob", Created: created} // no token
	if err := s.CreateBot(ctx, bob); err != nil {
		t.Fatalf("CreateBot(bob): %v", err)
	}
	carol := &domain.Bot{Name: "carol"} // a second bot without token is fine
	if err := s.CreateBot(ctx, carol); err != nil {
		t.Fatalf("CreateBot(carol): %v", err)
	}

	got, err := s.BotByName(ctx, "alice")
	if err != nil {
		t.Fatalf("BotByName: %v", err)
	}
	if !reflect.DeepEqual(got, alice) {
		t.Errorf("BotByName(alice) = %+v, want %+v", got, alice)
	}
	got, err = s.BotByTokenHash(ctx, []byte{1, 2, 3})
	if err != nil || got.Name != "alice" {
		t.Errorf("BotByTokenHash = %+v, %v; want alice", got, err)
	}
	got, err = s.BotByName(ctx, "bob")
	if err != nil || !got.Created.Equal(created) || got.TokenHash != nil || got.ID != "bob-id" {
		t.Errorf("BotByName(bob) = %+v, %v; want created %v, no token, id bob-id", got, err, created)
	}

	for _, c := range []struct {
		name string
		bot  domain.Bot
	}{
		{"same name", domain.Bot{Name: "alice", TokenHash: []byte{9}}},
		{"same token", domain.Bot{Name: "alice2", TokenHash: []byte{1, 2, 3}}},
		{"same id", domain.Bot{ID: "bob-id", Name: "bob2"}},
	} {
		b := c.bot
		if err := s.CreateBot(ctx, &b); !errors.Is(err, domain.ErrConflict) {
			t.Errorf("CreateBot(%s) = %v, want ErrConflict", c.name, err)
		}
	}
	if err := s.CreateBot(ctx, &domain.Bot{Name: "alice", TokenHash: []byte{9}}); err == nil ||
		!strings.Contains(err.Error(), `bot name "alice" is taken`) {
		t.Errorf("CreateBot(taken name) = %v, want it to say the name is taken", err)
	}

	if _, err := s.BotByName(ctx, "nobody"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("BotByName(nobody) = %v, want ErrNotFound", err)
	}
	if _, err := s.BotByTokenHash(ctx, []byte{7}); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("BotByTokenHash(unknown) = %v, want ErrNotFound", err)
	}
	if _, err := s.BotByTokenHash(ctx, nil); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("BotByTokenHash(nil) = %v, want ErrNotFound", err)
	}

	bots, err := s.ListBots(ctx)
	if err != nil {
		t.Fatalf("ListBots: %v", err)
	}
	var names []string
	for _, b := range bots {
		names = append(names, b.Name)
	}
	if want := []string{"alice", "bob", "carol"}; !reflect.DeepEqual(names, want) {
		t.Errorf("ListBots names = %v, want %v", names, want)
	}
}
