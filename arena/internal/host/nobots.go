package host

import (
	"context"
	"errors"

	"github.com/tapparena/tapp/arena/internal/domain"
)

// noBots is the store of an ephemeral arena (a bot check, a re-ask): no bot is registered, so
// only the tokens the arena mints connect; nothing is stored, and it says so to a caller that
// tries (the admin service of such an arena is disabled, its server stores no match).
type noBots struct{}

var _ domain.Store = noBots{}

// errEphemeral is what a write to an ephemeral arena's store returns.
var errEphemeral = errors.New("this arena is ephemeral: it stores nothing")

func (noBots) CreateBot(context.Context, *domain.Bot) error { return errEphemeral }

func (noBots) BotByName(context.Context, string) (*domain.Bot, error) { return nil, domain.ErrNotFound }

func (noBots) BotByTokenHash(context.Context, []byte) (*domain.Bot, error) {
	return nil, domain.ErrNotFound
}

func (noBots) ListBots(context.Context) ([]domain.Bot, error) { return nil, nil }

func (noBots) CreateMatch(context.Context, *domain.Match) error { return errEphemeral }

func (noBots) UpdateMatch(context.Context, *domain.Match) error { return errEphemeral }

func (noBots) GetMatch(context.Context, string) (*domain.Match, error) {
	return nil, domain.ErrNotFound
}

func (noBots) ListMatches(context.Context, domain.MatchFilter) ([]domain.Match, error) {
	return nil, nil
}

func (noBots) SaveDeal(context.Context, *domain.DealRecord) error { return errEphemeral }

func (noBots) Deal(context.Context, string, int) (*domain.DealRecord, error) {
	return nil, domain.ErrNotFound
}

func (noBots) Deals(context.Context, string) ([]domain.DealRecord, error) { return nil, nil }

func (noBots) DealNumbers(context.Context, string) ([]int, error) { return nil, nil }

func (noBots) Results(context.Context, domain.MatchFilter) ([]domain.ResultRow, error) {
	return nil, nil
}

func (noBots) Close() error { return nil }
