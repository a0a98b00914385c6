package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
)

// CreateBot registers a bot, assigning b.ID and b.Created when they are empty. A taken name
// (or token hash, or ID) is domain.ErrConflict.
func (s *Store) CreateBot(ctx context.Context, b *domain.Bot) error {
	if b.Name == "" {
		return errors.New("store: create bot: empty name")
	}
	if b.ID == "" {
		b.ID = newID()
	}
	if b.Created.IsZero() {
		b.Created = now()
	}
	b.Created = b.Created.UTC().Truncate(time.Microsecond)
	var hash any
	if len(b.TokenHash) > 0 {
		hash = b.TokenHash
	}
	res, err := s.w.ExecContext(ctx, s.rebind(
		`INSERT INTO bots (id, name, token_hash, created) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`),
		b.ID, b.Name, hash, s.timeArg(b.Created))
	if err != nil {
		return s.wrap(fmt.Sprintf("create bot %q", b.Name), err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 1 {
		return s.wrap(fmt.Sprintf("create bot %q", b.Name), err)
	}
	if _, err := s.BotByName(ctx, b.Name); err == nil {
		return fmt.Errorf("bot name %q is taken: %w", b.Name, domain.ErrConflict)
	}
	return fmt.Errorf("bot %q: its id or token is already registered: %w", b.Name, domain.ErrConflict)
}

const botColumns = `id, name, token_hash, created`

func (s *Store) oneBot(ctx context.Context, what, where string, arg any) (*domain.Bot, error) {
	var b domain.Bot
	var created dbTime
	err := s.r.QueryRowContext(ctx, s.rebind(`SELECT `+botColumns+` FROM bots WHERE `+where), arg).
		Scan(&b.ID, &b.Name, &b.TokenHash, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("bot %s: %w", what, domain.ErrNotFound)
	}
	if err != nil {
		return nil, s.wrap("read bot "+what, err)
	}
	b.Created = created.T
	return &b, nil
}

// BotByName returns the bot of that name, or domain.ErrNotFound.
func (s *Store) BotByName(ctx context.Context, name string) (*domain.Bot, error) {
	return s.oneBot(ctx, fmt.Sprintf("%q", name), `name = ?`, name)
}

// BotByTokenHash returns the bot whose token hashes to hash, or domain.ErrNotFound.
func (s *Store) BotByTokenHash(ctx context.Context, hash []byte) (*domain.Bot, error) {
	if len(hash) == 0 {
		return nil, fmt.Errorf("bot with an empty token hash: %w", domain.ErrNotFound)
	}
	return s.oneBot(ctx, "with that token", `token_hash = ?`, hash)
}

// ListBots returns every bot, by name.
func (s *Store) ListBots(ctx context.Context) ([]domain.Bot, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+botColumns+` FROM bots ORDER BY name`)
	if err != nil {
		return nil, s.wrap("list bots", err)
	}
	defer rows.Close()
	var bots []domain.Bot
	for rows.Next() {
		var b domain.Bot
		var created dbTime
		if err := rows.Scan(&b.ID, &b.Name, &b.TokenHash, &created); err != nil {
			return nil, s.wrap("list bots", err)
		}
		b.Created = created.T
		bots = append(bots, b)
	}
	return bots, s.wrap("list bots", rows.Err())
}

// SetBotToken replaces the token hash of the bot named name: a new token (rotation) or, with
// hash nil, none (revocation: the bot keeps its name and results but nothing connects as it).
// An unknown name is domain.ErrNotFound; a hash another bot has is domain.ErrConflict.
func (s *Store) SetBotToken(ctx context.Context, name string, hash []byte) error {
	var arg any
	if len(hash) > 0 {
		arg = hash
	}
	res, err := s.w.ExecContext(ctx, s.rebind(`UPDATE bots SET token_hash = ? WHERE name = ?`), arg, name)
	if err != nil {
		return s.wrap(fmt.Sprintf("set token of bot %q", name), err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return s.wrap(fmt.Sprintf("set token of bot %q", name), err)
	}
	if n == 0 {
		return fmt.Errorf("bot %q: %w", name, domain.ErrNotFound)
	}
	return nil
}
