package botcheck

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/engine"
)

// rawbotPath is testdata/rawbot, built once in TestMain: a bot on the bare gRPC stubs with
// faults on demand.
var rawbotPath string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "botcheck-rawbot-")
	if err != nil {
		panic(err)
	}
	rawbotPath = filepath.Join(dir, "rawbot")
	if out, err := exec.Command("go", "build", "-o", rawbotPath, "./testdata/rawbot").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building testdata/rawbot: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

func rawbot(*testing.T) string { return rawbotPath }

// venvPython is the repository's .venv Python (make venv), or a skip.
func venvPython(t *testing.T) string {
	t.Helper()
	py, err := filepath.Abs(filepath.Join("..", "..", "..", ".venv", "bin", "python")) // tests run in the package's folder
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(py); err != nil {
		t.Skipf("no .venv in the repository (run `make venv`; `make test` does): %v", err)
	}
	return py
}

func modern(t *testing.T) []engine.RuleSet {
	t.Helper()
	return []engine.RuleSet{engine.DefaultRules(engine.Modern)}
}

func check(t *testing.T, cfg Config) *Report {
	t.Helper()
	if cfg.ConnectTimeout == 0 {
		cfg.ConnectTimeout = 60 * time.Second // a Python bot on a busy machine
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	r, err := Run(ctx, cfg)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	for _, it := range r.Items {
		t.Logf("%v %s: %s | fix: %s | %s", it.Pass, it.Name, it.Reason, it.Fix, strings.Join(it.Notes, " / "))
	}
	return r
}

func item(t *testing.T, r *Report, name string) Item {
	t.Helper()
	for _, it := range r.Items {
		if it.Name == name {
			return it
		}
	}
	t.Fatalf("no item %q in the report", name)
	return Item{}
}

func TestGoodBotPassesEveryItemOfEveryRuleSet(t *testing.T) {
	t.Parallel()
	r := check(t, Config{Command: rawbot(t) + " -mode good", Deals: 2, Questions: 1})
	if !r.Passed() {
		t.Fatalf("a bot that answers the first legal action at once fails: %s", r.Summary())
	}
	var names []string
	for _, it := range r.Items {
		names = append(names, it.Name)
	}
	for _, rules := range DefaultRules() {
		for _, k := range Kinds(rules) {
			want := k.String() + " in " + rules.Variant.String() + variantNote(rules)
			if !slices.Contains(names, want) {
				t.Errorf("no item %q; items: %q", want, names)
			}
		}
	}
	for _, want := range []string{"connect", "resume after a dropped stream", "shutdown (GoingAway)", "stderr"} {
		if !slices.Contains(names, want) {
			t.Errorf("no item %q", want)
		}
	}
}

func TestKindsCoverEveryDecisionOfTheEngine(t *testing.T) {
	t.Parallel()
	seen := map[engine.Decision]bool{}
	for _, r := range DefaultRules() {
		for _, k := range Kinds(r) {
			seen[k] = true
			pos, err := findPositions(r, k, 1, 1)
			if err != nil {
				t.Fatal(err)
			}
			if got := pos[0].state.Decision(); got != k {
				t.Errorf("%s: position for %s is a %s decision", r, k, got)
			}
		}
	}
	for _, k := range []engine.Decision{engine.DecideBid, engine.DecideContract, engine.DecideTrump, engine.DecideDiscard,
		engine.DecideCall, engine.DecideGive, engine.DecideTout, engine.DecideCard} {
		if !seen[k] {
			t.Errorf("decision kind %s is never checked", k)
		}
	}
}

func TestIllegalAnswersFailWithTheRuleAndTheFix(t *testing.T) {
	t.Parallel()
	r := check(t, Config{Command: rawbot(t) + " -mode illegal", Rules: modern(t), Deals: 1, Questions: 1,
		TimeControl: domain.TimeControl{PerDecision: time.Second, MaxStrikes: 3}})
	if r.Passed() {
		t.Fatal("a bot that answers illegal actions passes")
	}
	it := item(t, r, "contract in modern")
	if it.Pass || !strings.Contains(it.Reason, "illegal") || !strings.Contains(it.Fix, "DecisionRequest.legal") {
		t.Errorf("contract item = %+v, want a failure that says illegal and how to fix it", it)
	}
	if !slices.ContainsFunc(it.Notes, func(n string) bool {
		return strings.Contains(n, `answered "tout"`) && strings.Contains(n, "R-MOD-BID-2")
	}) {
		t.Errorf("contract item notes %q do not name the answer and the rule", it.Notes)
	}
	// The deadline that passed after the refused answers is the illegal answer's doing, not
	// lateness.
	for _, it := range r.Items {
		if strings.Contains(it.Reason, "illegal") && (strings.Contains(it.Reason, "late") || strings.Contains(it.Fix, "deadline")) {
			t.Errorf("item %q calls an illegal answer late: %s | fix: %s", it.Name, it.Reason, it.Fix)
		}
	}
}

func TestMalformedAnswersFail(t *testing.T) {
	t.Parallel()
	r := check(t, Config{Command: rawbot(t) + " -mode malformed", Rules: modern(t), Deals: 1, Questions: 1,
		TimeControl: domain.TimeControl{PerDecision: time.Second, MaxStrikes: 3}})
	it := item(t, r, "bid in modern")
	if it.Pass || !strings.Contains(it.Reason, "malformed") || !strings.Contains(it.Fix, "action notation") {
		t.Errorf("bid item = %+v, want malformed with the fix", it)
	}
}

func TestSlowBotFailsAsLate(t *testing.T) {
	t.Parallel()
	r := check(t, Config{Command: rawbot(t) + " -mode slow", Rules: modern(t), Deals: 1, Questions: 1,
		TimeControl: domain.TimeControl{PerDecision: time.Second, MaxStrikes: 3}})
	it := item(t, r, "card in modern")
	if it.Pass || !strings.Contains(it.Reason, "late") || !strings.Contains(it.Fix, "deadline") {
		t.Errorf("card item = %+v, want late with the fix", it)
	}
	for _, it := range r.Items { // late and forfeit share their advice: it is given once
		if n := strings.Count(it.Fix, "answer before the request's deadline"); n > 1 {
			t.Errorf("item %q gives the deadline advice %d times: %s", it.Name, n, it.Fix)
		}
	}
}

func TestCrashingBotFailsWithItsStderr(t *testing.T) {
	t.Parallel()
	r := check(t, Config{Command: rawbot(t) + " -mode crash", Rules: modern(t), Deals: 2, Questions: 2})
	if r.Passed() {
		t.Fatal("a bot that crashes passes")
	}
	if !slices.ContainsFunc(r.Items, func(it Item) bool { return !it.Pass && strings.Contains(it.Reason, "crash") }) {
		t.Error("no item fails as a crash")
	}
	it := item(t, r, "stderr")
	if it.Pass || !slices.Contains(it.Notes, "stderr: panic: crashed on purpose") {
		t.Errorf("stderr item = %+v, want the panic line", it)
	}
	// The item it crashed in says crash, not late, and shows the bot's own last words.
	for _, it := range r.Items {
		if it.Pass || !strings.Contains(it.Reason, "crash") || it.Name == "stderr" {
			continue
		}
		if strings.Contains(it.Reason, "late") {
			t.Errorf("item %q calls the crash late: %s", it.Name, it.Reason)
		}
		if !slices.Contains(it.Notes, "stderr: panic: crashed on purpose") {
			t.Errorf("item %q does not show the bot's stderr: %q", it.Name, it.Notes)
		}
	}
}

func TestBotThatIgnoresResumeFails(t *testing.T) {
	t.Parallel()
	r := check(t, Config{Command: rawbot(t) + " -mode noresume", Rules: modern(t), Deals: 1, Questions: 1})
	it := item(t, r, "resume after a dropped stream")
	if it.Pass || !strings.Contains(it.Reason, "ignores resume") || !strings.Contains(it.Fix, "resume_token") {
		t.Errorf("resume item = %+v, want ignores resume and the fix", it)
	}
	for _, other := range r.Items {
		if other.Name != it.Name && !other.Pass {
			t.Errorf("item %q fails too: %s", other.Name, other.Reason)
		}
	}
}

func TestBotThatAnswersAfterGameEndedFails(t *testing.T) {
	t.Parallel()
	r := check(t, Config{Command: rawbot(t) + " -mode afterend", Rules: modern(t), Deals: 1, Questions: 1})
	it := item(t, r, "play modern")
	if it.Pass || !strings.Contains(it.Reason, "missed GameEnded") || !strings.Contains(it.Fix, "GameEnded") {
		t.Errorf("play item = %+v, want missed GameEnded", it)
	}
}

func TestBotThatIgnoresGoingAwayFails(t *testing.T) {
	t.Parallel()
	r := check(t, Config{Command: rawbot(t) + " -mode linger", Rules: modern(t), Deals: 1, Questions: 1})
	it := item(t, r, "shutdown (GoingAway)")
	if it.Pass || !strings.Contains(it.Reason, "still running") {
		t.Errorf("shutdown item = %+v, want still running", it)
	}
}

func TestBotAlreadyRunningIsCheckedAtTheAddress(t *testing.T) {
	t.Parallel()
	// A bot started by hand: it retries until the check's arena listens.
	addr := freeAddr(t)
	cmd := exec.Command(rawbot(t), "-mode", "good")
	cmd.Env = append(os.Environ(), "TAPP_ARENA="+addr, "TAPP_TOKEN=my-token", "TAPP_BOT_NAME=bot")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	r := check(t, Config{Listen: addr, Token: "my-token", Rules: modern(t), Deals: 1, Questions: 1})
	if !r.Passed() {
		t.Fatalf("a good bot started by hand fails: %s", r.Summary())
	}
}

func TestPythonSDKBotPasses(t *testing.T) {
	t.Parallel()
	py := venvPython(t)
	r := check(t, Config{Command: py + " ../../../bots/python/examples/random_bot.py", Deals: 2, Questions: 1})
	if !r.Passed() {
		t.Fatalf("the Python SDK's random bot fails: %s", r.Summary())
	}
}

func TestBrokenPythonBots(t *testing.T) {
	t.Parallel()
	py := venvPython(t)
	t.Run("illegal", func(t *testing.T) {
		t.Parallel()
		r := check(t, Config{Command: py + " testdata/pybot.py illegal", Rules: modern(t), Deals: 1, Questions: 1,
			TimeControl: domain.TimeControl{PerDecision: time.Second, MaxStrikes: 3}})
		if it := item(t, r, "card in modern"); it.Pass || !strings.Contains(it.Reason, "illegal") {
			t.Errorf("card item = %+v, want illegal", it)
		}
	})
	t.Run("crash", func(t *testing.T) {
		t.Parallel()
		r := check(t, Config{Command: py + " testdata/pybot.py crash", Rules: modern(t), Deals: 2, Questions: 2})
		it := item(t, r, "stderr")
		if it.Pass || !slices.ContainsFunc(it.Notes, func(n string) bool { return strings.Contains(n, "Traceback") }) {
			t.Errorf("stderr item = %+v, want the traceback", it)
		}
	})
	t.Run("slow", func(t *testing.T) {
		t.Parallel()
		r := check(t, Config{Command: py + " testdata/pybot.py slow", Rules: modern(t), Deals: 1, Questions: 1,
			TimeControl: domain.TimeControl{PerDecision: time.Second, MaxStrikes: 3}})
		if it := item(t, r, "card in modern"); it.Pass || !strings.Contains(it.Reason, "late") {
			t.Errorf("card item = %+v, want late", it)
		}
	})
	t.Run("sdk covers", func(t *testing.T) {
		t.Parallel()
		r := check(t, Config{Command: py + " testdata/sdkbot.py", Rules: modern(t), Deals: 1, Questions: 1})
		it := item(t, r, "stderr")
		if it.Pass || !strings.Contains(it.Reason, "the SDK answered for the bot") ||
			!slices.ContainsFunc(it.Notes, func(n string) bool { return strings.Contains(n, "the bot raised") }) {
			t.Errorf("stderr item = %+v, want the SDK's fallbacks named", it)
		}
		// "fix the code the lines below point at": the traceback is below.
		for _, want := range []string{"Traceback (most recent call last)", `raise ValueError("no idea which card")`, "ValueError: no idea which card"} {
			if !slices.ContainsFunc(it.Notes, func(n string) bool { return strings.Contains(n, want) }) {
				t.Errorf("stderr item notes %q lack %q", it.Notes, want)
			}
		}
		if strings.Contains(it.Reason, "crash") {
			t.Errorf("the traceback the SDK logged counts as a crash: %+v", it)
		}
	})
	t.Run("no resume", func(t *testing.T) {
		t.Parallel()
		// pybot.py never reconnects: the stream drop ends it.
		r := check(t, Config{Command: py + " testdata/pybot.py good", Rules: modern(t), Deals: 1, Questions: 1})
		if it := item(t, r, "resume after a dropped stream"); it.Pass {
			t.Errorf("resume item passes for a bot that does not reconnect: %+v", it)
		}
	})
}

func TestConfigNeedsABot(t *testing.T) {
	t.Parallel()
	if _, err := Run(context.Background(), Config{}); err == nil || !strings.Contains(err.Error(), "command") {
		t.Errorf("Run without a bot: err = %v, want one that asks for the command", err)
	}
}

func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	return addr
}
