// Package notify tells an organiser that something long has ended — a league, a match, a
// sequential test — by sending a JSON summary to each target the league file's `notify:` or a
// command's --notify names: an http:// or https:// URL gets it as the body of a POST, any
// other target is a command line (split as a shell would, run without one, through
// arena/internal/launch) that gets it on its standard input.
//
// A notification that cannot be delivered is an error for the caller to log: it never
// changes what was played or stored.
package notify

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/tapparena/tapp/arena/internal/launch"
)

// Version is the version of the Summary's JSON: raised when a field changes meaning.
const Version = 1

// Timeout bounds one delivery: a POST, or a command's run.
const Timeout = 30 * time.Second

// Summary is what a notification says. Result is the value the command prints with --json
// (the leaderboard and outcome of a league, a match's table, a test's verdict).
type Summary struct {
	Version int       `json:"version"`
	Kind    string    `json:"kind"`   // "league", "match" or "sprt"
	Name    string    `json:"name"`   // the league's or the test's name, or the match's id
	Status  string    `json:"status"` // "finished", or "stopped" (with Reason), or a test's "H0"/"H1"/"undecided"
	Reason  string    `json:"reason,omitempty"`
	At      time.Time `json:"at"`
	DB      string    `json:"db,omitempty"` // the store it is in (a password hidden)
	Deals   int       `json:"deals"`        // deals played by the run that ends
	// Next are commands that show more of it (the leaderboard, the replays).
	Next   []string `json:"next,omitempty"`
	Result any      `json:"result,omitempty"`
}

// Kinds of summary.
const (
	League = "league"
	Match  = "match"
	SPRT   = "sprt"
)

// Check says whether a target can be used: a URL with a host, or a command line that splits.
func Check(target string) error {
	if isURL(target) {
		u, err := url.Parse(target)
		if err != nil || u.Host == "" {
			return fmt.Errorf("notify target %q: not a URL with a host", target)
		}
		return nil
	}
	if strings.TrimSpace(target) == "" {
		return errors.New("notify target is empty: give a URL or a command")
	}
	_, _, err := launch.Split(target)
	return err
}

func isURL(target string) bool {
	return strings.HasPrefix(target, "http://") || strings.HasPrefix(target, "https://")
}

// Send delivers s to every target, one after the other, and returns the failures (nil when
// all were delivered). A command gets the JSON on standard input and TAPP_NOTIFY_KIND,
// TAPP_NOTIFY_NAME and TAPP_NOTIFY_STATUS in its environment.
func Send(ctx context.Context, targets []string, s Summary) error {
	if len(targets) == 0 {
		return nil
	}
	s.Version = Version
	if s.At.IsZero() {
		s.At = time.Now().UTC()
	}
	body, err := json.Marshal(s)
	if err != nil {
		return fmt.Errorf("notify: %w", err)
	}
	body = append(body, '\n') // one line, as a command reading its input expects
	var errs []error
	for _, t := range targets {
		if err := deliver(ctx, t, s, body); err != nil {
			errs = append(errs, fmt.Errorf("notifying %s: %w", redact(t), err))
		}
	}
	return errors.Join(errs...)
}

func deliver(ctx context.Context, target string, s Summary, body []byte) error {
	if !isURL(target) {
		env := []string{"TAPP_NOTIFY_KIND=" + s.Kind, "TAPP_NOTIFY_NAME=" + s.Name, "TAPP_NOTIFY_STATUS=" + s.Status}
		return launch.RunOnce(ctx, target, env, body, Timeout)
	}
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "tapp-notify/1")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 300))
		return fmt.Errorf("the server answered %s: %s", resp.Status, strings.TrimSpace(string(msg)))
	}
	return nil
}

// redact hides a URL's password (a webhook's secret may be in its query too, so that goes).
func redact(target string) string {
	if !isURL(target) {
		if argv, _, err := launch.Split(target); err == nil {
			return "command " + argv[0]
		}
		return "a command"
	}
	u, err := url.Parse(target)
	if err != nil {
		return "a URL"
	}
	u.User, u.RawQuery = nil, ""
	return u.String()
}
