package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/tapparena/tapp/arena/internal/domain"
)

// Submissions (hosted bots' versions) are numbered per bot, their source kept once per
// digest, their builds and gauntlet verdicts recorded; a version of an unregistered bot, an
// unknown version or source is ErrNotFound.
func testSubmissions(t *testing.T, s Store) {
	addSubmissions(t, s)
	checkSubmissionReads(t, s)
	checkSubmissionVerdicts(t, s)
}

// addSubmissions registers bots a and b and submits a@1 (source "one"), a@2 ("two"), b@1
// ("one") and a@3 ("one" again), checking each is numbered per bot and stored queued; a
// version of an unregistered bot is refused.
func addSubmissions(t *testing.T, s Store) {
	t.Helper()
	ctx := context.Background()
	if err := s.AddSubmission(ctx, &domain.Submission{Bot: "ghost", Lang: "go", Digest: "d0"}, []byte("x")); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("a version of an unregistered bot: %v, want ErrNotFound", err)
	}
	for _, b := range []string{"a", "b"} {
		if err := s.CreateBot(ctx, &domain.Bot{Name: b}); err != nil {
			t.Fatal(err)
		}
	}
	add := func(bot, digest, source string) *domain.Submission {
		t.Helper()
		sub := &domain.Submission{Bot: bot, Lang: "python", Entry: "bot.py", Digest: digest}
		if err := s.AddSubmission(ctx, sub, []byte(source)); err != nil {
			t.Fatal(err)
		}
		return sub
	}
	a1, a2, b1, a3 := add("a", "d1", "one"), add("a", "d2", "two"), add("b", "d1", "one"), add("a", "d1", "one")
	for _, tc := range []struct {
		sub  *domain.Submission
		want string
	}{{a1, "a@1"}, {a2, "a@2"}, {b1, "b@1"}, {a3, "a@3"}} {
		if tc.sub.Name() != tc.want || tc.sub.Status != domain.SubmissionQueued || tc.sub.Format != domain.SourceFormat || tc.sub.Size != 3 || tc.sub.Created.IsZero() {
			t.Errorf("stored %+v, want %s queued, format %d, 3 bytes, a creation time", tc.sub, tc.want, domain.SourceFormat)
		}
	}
}

// checkSubmissionReads reads addSubmissions' sources and versions back; unknown ones are
// ErrNotFound.
func checkSubmissionReads(t *testing.T, s Store) {
	t.Helper()
	ctx := context.Background()
	if src, err := s.SubmissionSource(ctx, "d2"); err != nil || string(src) != "two" {
		t.Errorf("source d2 = %q, %v", src, err)
	}
	if _, err := s.SubmissionSource(ctx, "nope"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("an unknown source: %v, want ErrNotFound", err)
	}
	latest, err := s.Submission(ctx, "a", 0)
	if err != nil || latest.Version != 3 || latest.Digest != "d1" || latest.Entry != "bot.py" || latest.Lang != "python" {
		t.Errorf("a@latest = %+v, %v", latest, err)
	}
	if _, err := s.Submission(ctx, "a", 9); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("a@9: %v, want ErrNotFound", err)
	}
	if _, err := s.Submission(ctx, "ghost", 0); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("ghost@latest: %v, want ErrNotFound", err)
	}
}

// checkSubmissionVerdicts records a build and a gauntlet verdict on addSubmissions' versions
// and reads them back, by version and in the lists.
func checkSubmissionVerdicts(t *testing.T, s Store) {
	t.Helper()
	ctx := context.Background()
	if err := s.SetSubmissionBuild(ctx, "a", 2, domain.SubmissionFailed, "bot.py:3: SyntaxError"); err != nil {
		t.Fatal(err)
	}
	if err := s.SetSubmissionGauntlet(ctx, "a", 1, domain.GauntletFirst); err != nil {
		t.Fatal(err)
	}
	if err := s.SetSubmissionGauntlet(ctx, "a", 7, domain.GauntletFirst); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("the verdict of a missing version: %v, want ErrNotFound", err)
	}
	a2r, err := s.Submission(ctx, "a", 2)
	if err != nil || a2r.Status != domain.SubmissionFailed || a2r.BuildLog != "bot.py:3: SyntaxError" || a2r.Built.IsZero() {
		t.Errorf("a@2 after its build: %+v, %v", a2r, err)
	}
	all, err := s.Submissions(ctx, "")
	if err != nil || len(all) != 4 || all[0].Name() != "a@1" || all[0].Gauntlet != domain.GauntletFirst || all[3].Name() != "b@1" {
		t.Errorf("every version, by bot and version: %v, %v", all, err)
	}
	if bs, err := s.Submissions(ctx, "b"); err != nil || len(bs) != 1 || bs[0].Name() != "b@1" {
		t.Errorf("b's versions: %v, %v", bs, err)
	}
}

// Versions submitted at the same moment (two authors' uploads, two dashboards on one
// database) each get a number of their own, with nothing lost.
func testConcurrentSubmissions(t *testing.T, s Store) {
	ctx := context.Background()
	if err := s.CreateBot(ctx, &domain.Bot{Name: "busy"}); err != nil {
		t.Fatal(err)
	}
	const n = 8
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			src := fmt.Sprintf("source %d", i)
			errs <- s.AddSubmission(ctx, &domain.Submission{Bot: "busy", Lang: "go", Digest: fmt.Sprintf("digest-%d", i%3)}, []byte(src))
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("AddSubmission at the same moment: %v", err)
		}
	}
	subs, err := s.Submissions(ctx, "busy")
	if err != nil {
		t.Fatal(err)
	}
	if len(subs) != n {
		t.Fatalf("%d versions stored of %d submitted", len(subs), n)
	}
	for i, sub := range subs {
		if sub.Version != i+1 {
			t.Errorf("version %d is numbered %d: want 1..%d, each once", i+1, sub.Version, n)
		}
	}
}
