package cli

import (
	"context"
	"flag"
	"strings"

	"go.uber.org/zap"

	"github.com/tapparena/tapp/arena/internal/notify"
)

// notifyTargets is --notify TARGET, repeatable: where a JSON summary goes when the command's
// league, match or test ends (arena/internal/notify).
type notifyTargets []string

func (n *notifyTargets) String() string { return strings.Join(*n, ", ") }

func (n *notifyTargets) Set(v string) error {
	if err := notify.Check(v); err != nil {
		return err
	}
	*n = append(*n, v)
	return nil
}

// notifyFlag registers --notify.
func notifyFlag(fs *flag.FlagSet, what string) *notifyTargets {
	t := &notifyTargets{}
	fs.Var(t, "notify", "when the "+what+" ends, POST a JSON summary to this http(s) URL, or give it to this command on stdin (repeatable)")
	return t
}

// notify sends the summary to the targets; a failure is logged, and changes nothing else.
func (m *Main) notify(ctx context.Context, targets []string, s notify.Summary) {
	if len(targets) == 0 {
		return
	}
	if err := notify.Send(context.WithoutCancel(ctx), targets, s); err != nil {
		m.Log.Warn("a notification was not delivered", zap.Error(err))
		return
	}
	m.Log.Info("notified", zap.String(s.Kind, s.Name), zap.String("status", s.Status), zap.Int("targets", len(targets)))
}
