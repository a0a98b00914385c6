package hosting_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/hosting"
	"github.com/tapparena/tapp/arena/internal/store"
	"github.com/tapparena/tapp/arena/internal/store/memstore"
)

// The submission methods behave alike in SQLite and in memory (until the shared store suite,
// arena/internal/store/storetest, takes them over): versions numbered per bot, the source
// kept once per digest, builds and verdicts recorded, unknown versions ErrNotFound.
func TestSubmissionStoresAgree(t *testing.T) {
	t.Parallel()
	sqlite, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "arena.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer sqlite.Close()
	for name, st := range map[string]hosting.Store{"sqlite": sqlite, "memory": memstore.New()} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			if err := st.AddSubmission(ctx, &domain.Submission{Bot: "ghost", Lang: "go", Digest: "d0"}, []byte("x")); !errors.Is(err, domain.ErrNotFound) {
				t.Errorf("a version of an unregistered bot: %v, want ErrNotFound", err)
			}
			for _, b := range []string{"a", "b"} {
				if err := st.CreateBot(ctx, &domain.Bot{Name: b}); err != nil {
					t.Fatal(err)
				}
			}
			add := func(bot, digest string, source string) *domain.Submission {
				t.Helper()
				sub := &domain.Submission{Bot: bot, Lang: hosting.Python, Entry: "bot.py", Digest: digest}
				if err := st.AddSubmission(ctx, sub, []byte(source)); err != nil {
					t.Fatal(err)
				}
				return sub
			}
			a1, a2, b1, a3 := add("a", "d1", "one"), add("a", "d2", "two"), add("b", "d1", "one"), add("a", "d1", "one")
			for _, tc := range []struct {
				sub  *domain.Submission
				want string
			}{{a1, "a@1"}, {a2, "a@2"}, {b1, "b@1"}, {a3, "a@3"}} {
				if tc.sub.Name() != tc.want || tc.sub.Status != domain.SubmissionQueued || tc.sub.Format != domain.SourceFormat || tc.sub.Size != 3 {
					t.Errorf("stored %+v, want %s queued, format %d, 3 bytes", tc.sub, tc.want, domain.SourceFormat)
				}
			}
			if src, err := st.SubmissionSource(ctx, "d2"); err != nil || string(src) != "two" {
				t.Errorf("source d2 = %q, %v", src, err)
			}
			if _, err := st.SubmissionSource(ctx, "nope"); !errors.Is(err, domain.ErrNotFound) {
				t.Errorf("an unknown source: %v", err)
			}
			latest, err := st.Submission(ctx, "a", 0)
			if err != nil || latest.Version != 3 || latest.Digest != "d1" || latest.Entry != "bot.py" || latest.Lang != hosting.Python {
				t.Errorf("a@latest = %+v, %v", latest, err)
			}
			if _, err := st.Submission(ctx, "a", 9); !errors.Is(err, domain.ErrNotFound) {
				t.Errorf("a@9: %v, want ErrNotFound", err)
			}
			if err := st.SetSubmissionBuild(ctx, "a", 2, domain.SubmissionFailed, "bot.py:3: SyntaxError"); err != nil {
				t.Fatal(err)
			}
			if err := st.SetSubmissionGauntlet(ctx, "a", 1, domain.GauntletFirst); err != nil {
				t.Fatal(err)
			}
			if err := st.SetSubmissionGauntlet(ctx, "a", 7, domain.GauntletFirst); !errors.Is(err, domain.ErrNotFound) {
				t.Errorf("the verdict of a missing version: %v", err)
			}
			a2r, _ := st.Submission(ctx, "a", 2)
			if a2r.Status != domain.SubmissionFailed || a2r.BuildLog != "bot.py:3: SyntaxError" || a2r.Built.IsZero() {
				t.Errorf("a@2 after its build: %+v", a2r)
			}
			all, err := st.Submissions(ctx, "")
			if err != nil || len(all) != 4 || all[0].Name() != "a@1" || all[0].Gauntlet != domain.GauntletFirst || all[3].Name() != "b@1" {
				t.Errorf("every version: %v, %v", all, err)
			}
			if bs, _ := st.Submissions(ctx, "b"); len(bs) != 1 {
				t.Errorf("b's versions: %v", bs)
			}
		})
	}
}
