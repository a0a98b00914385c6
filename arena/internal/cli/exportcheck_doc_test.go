package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tapparena/tapp/arena/internal/domain"
)

// exportCheckScript returns the Python code block of docs/replay.md that follows the
// export-check marker: the check of an export that a third party runs without the arena.
func exportCheckScript(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot(t), "docs", "replay.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	i := strings.Index(doc, "<!-- export-check")
	if i < 0 {
		t.Fatal("replay.md has no export-check marker")
	}
	rest := doc[i:]
	start := strings.Index(rest, "```python\n")
	end := strings.Index(rest[max(start, 0):], "\n```\n")
	if start < 0 || end < 0 {
		t.Fatal("no closed python block after the export-check marker")
	}
	return rest[start+len("```python\n") : start+end+1]
}

// python is the repository's .venv interpreter (make test makes it), else python3 on the
// PATH; the script needs nothing but its standard library.
func python(t *testing.T) string {
	t.Helper()
	if py := filepath.Join(repoRoot(t), ".venv", "bin", "python"); fileExists(py) {
		return py
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skipf("no Python: neither .venv (make venv) nor python3 on the PATH")
	}
	return py
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// checkExportByScript runs the third party's script of docs/replay.md on an export file.
func checkExportByScript(t *testing.T, file string) (string, error) {
	t.Helper()
	script := filepath.Join(t.TempDir(), "check_export.py")
	if err := os.WriteFile(script, []byte(exportCheckScript(t)), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(python(t), script, file).CombinedOutput()
	return string(out), err
}

// The script of docs/replay.md, "Checking an export without the arena", written from the
// documentation alone with nothing but SHA-256, checks a real export: a duplicate match
// played by tapp match (its requests in the file or not), and fails the same export with a
// deal left out, a line doubled, two lines swapped or a payoff changed.
func TestAThirdPartyChecksAnExportWithTheScriptOfTheDocs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "tapp.db")
	if _, errOut, err := runTapp(t, "match", "--bots", "heuristic,random,random", "--deals", "2", "--duplicate", "--seed", "5",
		"--db", db); err != nil {
		t.Fatalf("tapp match: %v\n%s", err, errOut)
	}
	ms, err := openDB(t, db).ListMatches(t.Context(), domain.MatchFilter{})
	if err != nil || len(ms) != 1 {
		t.Fatalf("matches: %v, %v", ms, err)
	}
	var lines []string
	for _, sent := range []bool{true, false} {
		file := filepath.Join(dir, "export.jsonl")
		args := []string{"replay", "export", ms[0].ID, "--out", file, "--db", db}
		if !sent {
			args = append(args, "--no-sent")
		}
		if _, errOut, err := runTapp(t, args...); err != nil {
			t.Fatalf("export: %v\n%s", err, errOut)
		}
		out, err := checkExportByScript(t, file)
		if err != nil || !strings.Contains(out, "commitment "+ms[0].Commitment+" holds") {
			t.Fatalf("the script on the export (requests in it: %t): %v\n%s", sent, err, out)
		}
		data, _ := os.ReadFile(file)
		lines = strings.Split(strings.TrimSpace(string(data)), "\n")
	}
	if len(lines) != 12 {
		t.Fatalf("%d lines, want the 12 deals of 2 groups under 6 seatings", len(lines))
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(lines[7]), &v); err != nil {
		t.Fatal(err)
	}
	v["outcome"].(map[string]any)["payoff"].([]any)[0] = 999.0
	changed, _ := json.Marshal(v)
	for name, bad := range map[string][]string{
		"a deal left out":   append(append([]string{}, lines[:4]...), lines[5:]...),
		"a line doubled":    append(append([]string{}, lines...), lines[3]),
		"two lines swapped": append([]string{lines[1], lines[0]}, lines[2:]...),
		"a payoff changed":  append(append(append([]string{}, lines[:7]...), string(changed)), lines[8:]...),
	} {
		file := filepath.Join(t.TempDir(), "bad.jsonl")
		if err := os.WriteFile(file, []byte(strings.Join(bad, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := checkExportByScript(t, file); err == nil || strings.Contains(out, "holds") {
			t.Errorf("the script on the export with %s: %v\n%s; want it to fail", name, err, out)
		}
	}
}
