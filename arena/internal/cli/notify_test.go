package cli

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// When a match or a league ends, the targets of --notify (and of the league file's notify:)
// get a JSON summary: a command on its stdin, a URL as a POST.
func TestNotificationsWhenAMatchAndALeagueEnd(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	got := make(chan map[string]any, 4)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var s map[string]any
		if err := json.Unmarshal(body, &s); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		got <- s
	}))
	defer srv.Close()

	// A match, to a command.
	out := filepath.Join(dir, "match.json")
	db := filepath.Join(dir, "n.db")
	if b, err := exec.Command(tappBin, "match", "--in-process", "--bots", "random,random,random", "--deals", "2", "--db", db,
		"--notify", "sh -c 'cat > "+out+"'").CombinedOutput(); err != nil {
		t.Fatalf("tapp match --notify: %v\n%s", err, b)
	}
	var s struct {
		Version int            `json:"version"`
		Kind    string         `json:"kind"`
		Name    string         `json:"name"`
		Status  string         `json:"status"`
		Deals   int            `json:"deals"`
		Next    []string       `json:"next"`
		Result  map[string]any `json:"result"`
	}
	text, err := os.ReadFile(out)
	if err != nil || json.Unmarshal(text, &s) != nil {
		t.Fatalf("the command got %q (%v)", text, err)
	}
	if s.Version != 1 || s.Kind != "match" || s.Status != "finished" || s.Deals != 2 || s.Name == "" || s.Result["match"] != s.Name ||
		len(s.Next) == 0 || !strings.Contains(s.Next[0], "tapp replay "+s.Name) {
		t.Errorf("the match's summary: %s", text)
	}

	// A league, to its file's URL and to the flag's command.
	file := filepath.Join(dir, "n.yaml")
	if err := os.WriteFile(file, []byte("name: told\nformat: round-robin\ndeals: 1\nbots:\n  - builtin: random\n    name: a\n  - builtin: random\n    name: b\n  - builtin: random\n    name: c\nnotify: "+srv.URL+"/hook\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out2 := filepath.Join(dir, "league.json")
	if b, err := exec.Command(tappBin, "league", "run", file, "--db", db, "--logs", filepath.Join(dir, "logs"),
		"--notify", "sh -c 'cat > "+out2+"'").CombinedOutput(); err != nil {
		t.Fatalf("tapp league run with notify: %v\n%s", err, b)
	}
	select {
	case posted := <-got:
		if posted["kind"] != "league" || posted["name"] != "told" || posted["status"] != "finished" || posted["deals"] != float64(6) {
			t.Errorf("the league's summary POSTed: %v", posted)
		}
	case <-time.After(patience(t, 10*time.Second)):
		t.Fatal("the league file's notify URL got nothing")
	}
	if text, err := os.ReadFile(out2); err != nil || !strings.Contains(string(text), `"kind":"league"`) {
		t.Errorf("the --notify command got %q (%v)", text, err)
	}
}

// --for also ends the wait for a bot that connects by itself: the league stops with nothing
// played, saying whom it waited for.
func TestLeagueForEndsTheWaitForBots(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "w.db")
	if b, err := exec.Command(tappBin, "bots", "add", "late", "--db", db).CombinedOutput(); err != nil {
		t.Fatalf("tapp bots add: %v\n%s", err, b)
	}
	file := filepath.Join(dir, "w.yaml")
	if err := os.WriteFile(file, []byte("name: waits\nformat: round-robin\ndeals: 1\nbots:\n  - builtin: random\n    name: a\n  - builtin: random\n    name: b\n  - name: late\n    token: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	b, err := exec.Command(tappBin, "league", "run", file, "--db", db, "--for", "3s", "--logs", filepath.Join(dir, "logs")).CombinedOutput()
	if err != nil {
		t.Fatalf("tapp league run --for 3s waiting for a bot: %v\n%s", err, b)
	}
	if took := time.Since(start); took > patience(t, time.Minute) {
		t.Errorf("--for 3s took %v", took)
	}
	if !strings.Contains(string(b), "time limit reached while waiting for bots late") {
		t.Errorf("the output does not say whom it waited for:\n%s", b)
	}
}
