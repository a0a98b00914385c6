package notify

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckTargets(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		target string
		ok     bool
	}{
		{"https://hooks.example.org/tapp", true},
		{"http://127.0.0.1:9000/x?secret=1", true},
		{"https://", false},
		{"notify-send 'league done'", true},
		{"mail -s 'it ended' me@example.org", true},
		{"", false},
		{"   ", false},
		{"echo 'unclosed", false},
	} {
		if err := Check(tc.target); (err == nil) != tc.ok {
			t.Errorf("Check(%q) = %v, want ok %v", tc.target, err, tc.ok)
		}
	}
}

// A URL gets the summary as a JSON POST; a command gets it on stdin and its kind, name and
// status in its environment.
func TestSendToURLAndCommand(t *testing.T) {
	t.Parallel()
	got := make(chan Summary, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var s Summary
		body, _ := io.ReadAll(r.Body)
		if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/json" || json.Unmarshal(body, &s) != nil {
			http.Error(w, "want a JSON POST", http.StatusBadRequest)
			return
		}
		got <- s
	}))
	defer srv.Close()
	dir := t.TempDir()
	out := filepath.Join(dir, "out.json")
	cmd := "sh -c 'cat > " + out + "; echo \"$TAPP_NOTIFY_KIND $TAPP_NOTIFY_NAME $TAPP_NOTIFY_STATUS\" >> " + out + "'"
	s := Summary{Kind: League, Name: "nightly", Status: "finished", Deals: 12, Result: map[string]int{"x": 1}}
	if err := Send(context.Background(), []string{srv.URL + "/hook", cmd}, s); err != nil {
		t.Fatal(err)
	}
	posted := <-got
	if posted.Version != Version || posted.Kind != League || posted.Name != "nightly" || posted.Deals != 12 || posted.At.IsZero() {
		t.Errorf("posted %+v", posted)
	}
	text, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(text)), "\n")
	var fromStdin Summary
	if len(lines) != 2 || json.Unmarshal([]byte(lines[0]), &fromStdin) != nil || fromStdin.Name != "nightly" {
		t.Errorf("the command got %q on stdin", text)
	}
	if lines[len(lines)-1] != "league nightly finished" {
		t.Errorf("the command's environment gave %q", lines[len(lines)-1])
	}
}

// A failed delivery is an error that names the target (without its secret) and the cause;
// the other targets are still tried.
func TestSendReportsFailures(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "no such hook", http.StatusNotFound)
	}))
	defer srv.Close()
	dir := t.TempDir()
	mark := filepath.Join(dir, "ran")
	err := Send(context.Background(), []string{srv.URL + "/x?token=s3cret", "sh -c 'echo oops >&2; exit 3'", "touch " + mark}, Summary{Kind: Match, Name: "m1"})
	if err == nil {
		t.Fatal("Send reported no failure")
	}
	msg := err.Error()
	for _, want := range []string{"404", "no such hook", "command sh", "exit status 3", "oops"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q does not say %q", msg, want)
		}
	}
	if strings.Contains(msg, "s3cret") {
		t.Errorf("error %q shows the URL's secret", msg)
	}
	if _, err := os.Stat(mark); err != nil {
		t.Errorf("the third target was not run after the first two failed: %v", err)
	}
}
