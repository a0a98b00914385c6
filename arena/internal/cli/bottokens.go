package cli

import (
	"context"
	"errors"
	"fmt"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/server"
)

// botToken rotates (a new token, printed once) or revokes the named bot's token in the
// store. The old token stops working at once for new connections; an arena serving from the
// same database closes the streams that connected with it within seconds.
func (m *Main) botToken(ctx context.Context, st domain.Store, verb, name string) error {
	var token string
	var err error
	if verb == "rotate" {
		token, err = server.RotateBotToken(ctx, st, name)
	} else {
		err = server.RevokeBotToken(ctx, st, name)
	}
	if s, ok := status.FromError(err); ok && err != nil { // the server's helpers speak gRPC, for the admin API
		if s.Code() == codes.NotFound {
			return fmt.Errorf("%s (tapp bots list shows the bots)", s.Message())
		}
		return errors.New(s.Message())
	}
	if err != nil {
		return err
	}
	if verb == "revoke" {
		fmt.Fprintf(m.Stderr, "revoked the token of bot %s: nothing connects as it until tapp bots rotate %s gives it a new one; its running sessions are closed\n", name, name)
		return nil
	}
	fmt.Fprintf(m.Stderr, "new token for bot %s (shown once, keep it secret; the old one no longer works and its running sessions are closed):\n", name)
	fmt.Fprintln(m.Stdout, token)
	return nil
}
