package web

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDashboardLinksOnlyWhatReadingNeeds: the read-only dashboard reads a store through its
// interface and renders replays with the viewer; it must not link the arena's machinery
// (the host, the gRPC bot server, the launcher, the league runner and its YAML file, the
// bot SDK, the re-ask arena) nor a store adapter. `go list -deps` sees the whole graph, so a
// package that pulls one of them in through a third fails here.
func TestDashboardLinksOnlyWhatReadingNeeds(t *testing.T) {
	t.Parallel()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to list the dependencies with")
	}
	out, err := exec.Command(goTool, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	const mod = "github.com/tapparena/tapp/"
	forbidden := []struct{ prefix, what string }{
		{mod + "arena/internal/host", "the arena host"},
		{mod + "arena/internal/server", "the gRPC bot server"},
		{mod + "arena/internal/launch", "the bot launcher"},
		{mod + "arena/internal/league", "the league runner, its plans and its file"},
		{mod + "arena/internal/reask", "the re-ask arena"},
		{mod + "arena/internal/store", "a store adapter (the dashboard reads through web.Store)"},
		{mod + "arena/internal/inproc", "the in-process bot adapter"},
		{mod + "arena/internal/app", "the application layer (it wires the dashboard, not the other way round)"},
		{mod + "arena/internal/hosting", "the hosted bots' use cases (the command wires the upload in as web.Submissions)"},
		{mod + "arena/internal/sandbox", "the sandboxes of hosted bots"},
		{mod + "bots/sdk", "the bot SDK"},
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, f := range forbidden {
			if dep == f.prefix || strings.HasPrefix(dep, f.prefix+"/") {
				t.Errorf("the dashboard links %s: %s", dep, f.what)
			}
		}
		if strings.Contains(strings.ToLower(dep), "yaml") { // gopkg.in/yaml.v3, github.com/goccy/go-yaml, …
			t.Errorf("the dashboard links %s: YAML (the league file's)", dep)
		}
	}
}
